import { BAR_LABEL_MAX, DAY_MONTH_LABEL_MAX_DAYS } from '@flywheel/shared/constants';
import { truncateText } from '@flywheel/shared/text';
import { formatDate, formatDayMonth, formatMonthYear } from './format-date.ts';

/**
 * Bar labels cut to 12 characters, the cut shown by an ellipsis (11 characters and '…'); the
 * chart's tooltip and the element's title keep the full name.
 */
export const cutLabel = (s: string): string => truncateText(s, BAR_LABEL_MAX);

/**
 * A day (YYYY-MM-DD...) is labelled 'day month' ('5 Mar') when the chart spans up to 90 days,
 * otherwise 'month year' ('Mar 2026').
 */
export function dateLabel(day: string, spanDays: number): string {
  const m = /^\d{4}-\d{2}-\d{2}/.exec(day);
  if (!m) return day;
  return spanDays <= DAY_MONTH_LABEL_MAX_DAYS ? formatDayMonth(m[0]) : formatMonthYear(m[0]);
}

/**
 * The x axis of a per-day chart keyed by `day` (YYYY-MM-DD): labels by the rule above; over 90 days one tick
 * per month (its first day in the data), so no month is named twice; the tooltip names the whole day.
 */
export function dayAxis(days: readonly string[], spanDays: number) {
  const long = spanDays > DAY_MONTH_LABEL_MAX_DAYS;
  const ticks = long ? monthTicks(days) : undefined;
  return {
    dataKey: 'day' as const,
    xAxisProps: {
      ticks,
      interval: long ? (0 as const) : ('preserveStartEnd' as const),
      tickFormatter: (d: string) => dateLabel(String(d), spanDays),
      minTickGap: long ? 4 : 12,
    },
    tooltipProps: { labelFormatter: (d: unknown) => formatDate(String(d).slice(0, 10)) },
  };
}

/**
 * The days that start a month in the data (YYYY-MM-DD, oldest first): the first day of each month, and the
 * first day of the data when its month has at least 10 days of data before the next month starts.
 */
export function monthTicks(days: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const [i, day] of days.entries()) {
    const month = day.slice(0, 7);
    if (seen.has(month)) continue;
    seen.add(month);
    const first = day.slice(8, 10) === '01';
    if (first || (i === 0 && daysLeftInMonth(day) >= 10)) out.push(day);
  }
  return out;
}

function daysLeftInMonth(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate() - d + 1;
}

/** Whole numbers with thousands separators. */
export const formatCount = (n: number): string => Math.round(n).toLocaleString('en-US');

type Counts = { messages: number; replies: number; reactions: number };

/**
 * Per-day totals of activity rows (rows may be per channel or member), oldest first, each labelled by the
 * section 9 date rule for a chart spanning `spanDays`.
 */
export function dailyTotals(
  rows: readonly (Counts & { date_of_data: string })[],
  spanDays: number,
): (Counts & { day: string; date: string })[] {
  const byDay = new Map<string, Counts>();
  for (const r of rows) {
    const day = r.date_of_data.slice(0, 10);
    const t = byDay.get(day) ?? { messages: 0, replies: 0, reactions: 0 };
    t.messages += r.messages;
    t.replies += r.replies;
    t.reactions += r.reactions;
    byDay.set(day, t);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, t]) => ({ day, date: dateLabel(day, spanDays), ...t }));
}
