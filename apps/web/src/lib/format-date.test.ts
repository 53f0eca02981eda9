import { describe, expect, it } from 'vitest';
import { dateLabel, dayAxis, monthTicks } from './chart-labels.ts';
import { formatDate, formatDateTime, formatDayMonth, formatMonthYear } from './format-date.ts';

describe('the one date format (day month year, as Home)', () => {
  it('formats instants in the local timezone and calendar days as written', () => {
    const at = new Date(2026, 10, 16, 14, 5); // 16 Nov 2026 14:05 local
    expect(formatDate(at)).toBe('16 Nov 2026');
    expect(formatDate(at.getTime())).toBe('16 Nov 2026');
    expect(formatDateTime(at)).toBe('16 Nov 2026, 14:05');
    expect(formatDayMonth(at)).toBe('16 Nov');
    expect(formatMonthYear(at)).toBe('Nov 2026');
    expect(formatDate('2026-09-01')).toBe('1 Sep 2026');
    expect(formatDate('not a date')).toBe('');
  });

  it('chart labels use it: day month up to 90 days, month year beyond', () => {
    expect(dateLabel('2026-11-16', 7)).toBe(formatDayMonth('2026-11-16'));
    expect(dateLabel('2026-11-16', 365)).toBe('Nov 2026');
  });
});

describe('the axis of a 365-day chart', () => {
  const days: string[] = [];
  for (let d = new Date(Date.UTC(2025, 10, 24)); days.length < 365; d.setUTCDate(d.getUTCDate() + 1))
    days.push(d.toISOString().slice(0, 10));

  it('names every month once (the first of each month), never a month twice', () => {
    const ticks = monthTicks(days);
    const axis = dayAxis(days, 365);
    const labels = ticks.map((t) => axis.xAxisProps.tickFormatter(t));
    expect(labels).toEqual([
      'Dec 2025',
      'Jan 2026',
      'Feb 2026',
      'Mar 2026',
      'Apr 2026',
      'May 2026',
      'Jun 2026',
      'Jul 2026',
      'Aug 2026',
      'Sep 2026',
      'Oct 2026',
      'Nov 2026',
    ]);
    expect(new Set(labels).size).toBe(labels.length);
    expect(axis.xAxisProps.ticks).toEqual(ticks);
    expect(axis.dataKey).toBe('day');
  });

  it("the tooltip keeps the day, not just the axis' month", () => {
    expect(dayAxis(days, 365).tooltipProps.labelFormatter('2026-01-15')).toBe('15 Jan 2026');
  });

  it('a first partial month gets a tick only when it has room (10 days or more)', () => {
    expect(monthTicks(['2026-01-20', '2026-01-31', '2026-02-01'])).toEqual(['2026-01-20', '2026-02-01']);
    expect(monthTicks(['2026-01-25', '2026-02-01'])).toEqual(['2026-02-01']);
  });

  it('short spans keep one label a day and let the chart thin them', () => {
    const week = days.slice(0, 7);
    const axis = dayAxis(week, 7);
    expect(axis.xAxisProps.ticks).toBeUndefined();
    expect(week.map((d) => axis.xAxisProps.tickFormatter(d))).toEqual([
      '24 Nov',
      '25 Nov',
      '26 Nov',
      '27 Nov',
      '28 Nov',
      '29 Nov',
      '30 Nov',
    ]);
  });
});
