import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../testing/render.tsx';
import { formatDayRange } from '../lib/format-date.ts';
import { TimeFilterSelect } from './TimeFilterSelect.tsx';

describe('TimeFilterSelect: a custom range stays readable', () => {
  it('shows the range short, in a wider control, with the exact days in its title', () => {
    renderUi(
      <TimeFilterSelect
        value={{ type: 'dynamic', start_date: '2026-10-01', end_date: '2026-11-15' }}
        onChange={() => {}}
      />,
    );
    const input = screen.getByRole('combobox', { name: 'Time filter' }) as HTMLInputElement;
    expect(input.value).toBe('1 Oct – 15 Nov 2026');
    expect(input).toHaveAttribute('title', '2026-10-01 – 2026-11-15');
    // Mantine writes the width in rem ('calc(16.25rem * …)'): the old 200 px (12.5rem) cut the range off.
    const root = input.closest<HTMLElement>('.mantine-Select-root')!;
    const rem = Number(/([\d.]+)rem/.exec(root.style.width)?.[1]);
    expect(rem * 16).toBeGreaterThanOrEqual(260);
  });

  it('a static choice keeps its label and no title', () => {
    renderUi(<TimeFilterSelect value={{ type: 'static', days: 14 }} onChange={() => {}} />);
    const input = screen.getByRole('combobox', { name: 'Time filter' }) as HTMLInputElement;
    expect(input.value).toBe('Last 14 days');
    expect(input).not.toHaveAttribute('title');
  });

  it('formats ranges across years and of one day', () => {
    expect(formatDayRange('2025-12-28', '2026-01-03')).toBe('28 Dec 2025 – 3 Jan 2026');
    expect(formatDayRange('2026-10-01', '2026-10-01')).toBe('1 Oct 2026');
  });
});
