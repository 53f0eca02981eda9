import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../../testing/render.tsx';
import { ChannelSelect } from './ChannelSelect.tsx';

describe('ChannelSelect: the workspace choice reads whole', () => {
  it("is wide enough for 'Workspace (all channels)' and says it in its title", () => {
    renderUi(<ChannelSelect value={null} onChange={() => {}} />);
    const input = screen.getByRole('combobox', { name: 'Channel' }) as HTMLInputElement;
    expect(input.value).toBe('Workspace (all channels)');
    expect(input).toHaveAttribute('title', 'Workspace (all channels)');
    // Mantine writes the width in rem; at the app's input size the old 240 px cut the label to 'Workspace (all channels'.
    const root = input.closest<HTMLElement>('.mantine-Select-root')!;
    const rem = Number(/([\d.]+)rem/.exec(root.style.width)?.[1]);
    expect(rem * 16).toBeGreaterThanOrEqual(280);
  });
});
