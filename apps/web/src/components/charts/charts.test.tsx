import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cutLabel, dayAxis, formatCount } from '../../lib/chart-labels.ts';
import { renderUi } from '../../testing/render-ui.tsx';
import { BarChart, LineChart, PieChart } from './index.ts';
import { labelIndexes, niceTicks } from './scale.ts';

const SERIES = [
  { name: 'messages', label: 'Messages', color: 'indigo.6' },
  { name: 'replies', label: 'Replies', color: 'teal.6' },
];

/** Gives the plot a 1000 px box (jsdom lays nothing out), so a pointer position names a category. */
function pointAt(plot: Element, x: number) {
  vi.spyOn(plot, 'getBoundingClientRect').mockReturnValue({ left: 0, width: 1000 } as DOMRect);
  fireEvent.pointerMove(plot, { clientX: x });
}

afterEach(() => vi.restoreAllMocks());

describe('scales', () => {
  it('axis ticks start at 0, end at or above the largest value, on a round step', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(100)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
    // Counts never get a 0.5 step; shares may.
    expect(niceTicks(2)).toEqual([0, 1, 2]);
    expect(niceTicks(0.3, 4, true)).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it('category labels: all of a week, about eight of a long span with the first and the last, or the given ones', () => {
    const days = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`);
    expect(labelIndexes(days(7), {})).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const month = labelIndexes(days(30), {});
    expect(month[0]).toBe(0);
    expect(month.at(-1)).toBe(29);
    expect(month.length).toBeLessThanOrEqual(9);
    expect(new Set(month).size).toBe(month.length);
    expect(labelIndexes(days(30), { every: true })).toHaveLength(30);
    expect(labelIndexes(['a', 'b', 'c'], { only: ['c', 'a'] })).toEqual([0, 2]);
  });
});

describe('LineChart', () => {
  const rows = [
    { day: '2026-11-01', messages: 4, replies: 0 },
    { day: '2026-11-02', messages: 10, replies: 3 },
    { day: '2026-11-03', messages: 0, replies: 1 },
  ];

  it('draws a line per series with a legend, and names the chart for screen readers', () => {
    renderUi(<LineChart h={200} data={rows} dataKey="day" series={SERIES} withLegend withDots />);
    const chart = screen.getByRole('img', { name: 'Line chart of Messages, Replies (3 points)' });
    expect(chart.querySelectorAll('path')).toHaveLength(2);
    expect(chart.querySelectorAll('path')[0]!.getAttribute('d')).toMatch(/^M0\.0 /);
    // A dot on each value, and the axis up to a round number over the largest.
    expect(chart.querySelectorAll('[class*=dot]')).toHaveLength(6);
    expect(within(chart).getByText('10')).toBeInTheDocument();
    expect(within(chart).getByText('Messages')).toBeInTheDocument();
    expect(within(chart).getByText('Replies')).toBeInTheDocument();
  });

  it('the tooltip names the whole day and each value; it goes when the pointer leaves', () => {
    renderUi(
      <LineChart
        h={200}
        data={rows}
        {...dayAxis(
          rows.map((r) => r.day),
          3,
        )}
        series={SERIES}
        valueFormatter={formatCount}
      />,
    );
    const plot = screen.getByRole('img').querySelector('[class*=plot]')!;
    pointAt(plot, 520);
    const tip = screen.getByRole('presentation');
    expect(tip).toHaveTextContent('2 Nov 2026');
    expect(tip).toHaveTextContent('Messages10');
    expect(tip).toHaveTextContent('Replies3');
    fireEvent.pointerLeave(plot);
    expect(screen.queryByRole('presentation')).toBeNull();
  });

  it('over a year, each month is named once on the axis', () => {
    const days = Array.from({ length: 365 }, (_, i) =>
      new Date(Date.UTC(2025, 10, 23 + i)).toISOString().slice(0, 10),
    );
    renderUi(
      <LineChart
        h={200}
        data={days.map((day) => ({ day, messages: 1, replies: 1 }))}
        {...dayAxis(days, 365)}
        series={SERIES}
      />,
    );
    const labels = [...screen.getByRole('img').querySelectorAll('[class*=xTick]')].map((e) => e.textContent);
    expect(labels.length).toBeGreaterThanOrEqual(12);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('Jan 2026');
  });

  it('series on the right axis get their own scale', () => {
    renderUi(
      <LineChart
        h={200}
        data={[
          { day: 'a', members: 600, joined: 2 },
          { day: 'b', members: 610, joined: 10 },
        ]}
        dataKey="day"
        series={[
          { name: 'joined', label: 'Joined', color: 'teal.6' },
          { name: 'members', label: 'Members', color: 'indigo.6', yAxisId: 'right' },
        ]}
        withRightYAxis
        yAxisLabel="Joined"
        rightYAxisLabel="Members"
      />,
    );
    const chart = screen.getByRole('img');
    const [joined, members] = [...chart.querySelectorAll('path')].map((p) => p.getAttribute('d')!);
    // Both lines end at the top of their own scale's range rather than 'joined' lying flat along 0.
    const lastY = (d: string) => Number(d.split(' ').at(-1));
    expect(lastY(joined!)).toBeLessThan(176 / 2);
    expect(lastY(members!)).toBeLessThan(176 / 2);
    expect(within(chart).getByText('800')).toBeInTheDocument();
  });
});

describe('BarChart', () => {
  const rows = [
    { channel: '#general', messages: 6, replies: 2 },
    { channel: '#a-very-long-channel-name', messages: 0, replies: 0 },
  ];

  it('stacks the series per category, the bars as tall as their share of the axis, rounded on top', () => {
    renderUi(
      <BarChart
        h={200}
        data={rows}
        dataKey="channel"
        series={SERIES}
        type="stacked"
        barProps={{ radius: 2 }}
        xAxisProps={{ tickFormatter: cutLabel, interval: 0, angle: -30 }}
        withLegend
      />,
    );
    const chart = screen.getByRole('img', { name: 'Bar chart of Messages, Replies (2 points)' });
    const bars = chart.querySelectorAll<HTMLElement>('[data-bar]');
    expect(bars).toHaveLength(4);
    expect(bars[0]!.style.height).toBe('75%');
    expect(bars[1]!.style.height).toBe('25%');
    expect(bars[1]!.style.borderRadius).toBe('2px 2px 0 0');
    expect(bars[0]!.style.borderRadius).toBe('');
    // Labels cut to 12 characters with an ellipsis; the full name on hover.
    const cut = within(chart).getByText('#a-very-lon…');
    expect(cut).toHaveAttribute('title', '#a-very-long-channel-name');
  });

  it('the tooltip shows the whole category name and its values', () => {
    renderUi(<BarChart h={200} data={rows} dataKey="channel" series={SERIES} valueFormatter={formatCount} />);
    pointAt(screen.getByRole('img').querySelector('[class*=plot]')!, 900);
    expect(screen.getByRole('presentation')).toHaveTextContent('#a-very-long-channel-nameMessages0Replies0');
  });
});

describe('PieChart', () => {
  it('a slice per value above 0, and the values in its name', () => {
    renderUi(
      <PieChart
        data={[
          { name: 'Tuesday', value: 1, color: 'indigo.6' },
          { name: 'Wednesday', value: 0, color: 'teal.6' },
          { name: 'Thursday', value: 3, color: 'grape.6' },
        ]}
        withTooltip
      />,
    );
    const chart = screen.getByRole('img', { name: 'Pie chart: Tuesday 1, Wednesday 0, Thursday 3' });
    const slices = chart.querySelectorAll('path');
    expect(slices).toHaveLength(2);
    fireEvent.pointerEnter(slices[1]!);
    expect(screen.getByRole('presentation')).toHaveTextContent('Thursday3');
  });

  it('one value fills the circle; no values draw an empty ring', () => {
    const { unmount } = renderUi(
      <PieChart data={[{ name: 'Only', value: 5, color: 'indigo.6' }]} thickness={10} />,
    );
    const whole = screen.getByRole('img').querySelector('path')!.getAttribute('d')!;
    // Two half arcs: an arc cannot start and end at the same point.
    expect(whole.match(/A/g)).toHaveLength(4);
    unmount();
    renderUi(<PieChart data={[{ name: 'None', value: 0, color: 'indigo.6' }]} chartLabel="0% members" />);
    expect(screen.getByRole('img').querySelector('path')).toHaveAttribute(
      'fill',
      'var(--mantine-color-gray-2)',
    );
    expect(screen.getByText('0% members')).toBeInTheDocument();
  });
});
