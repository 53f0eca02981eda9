import { BAR_LABEL_MAX, DAY_MONTH_LABEL_MAX_DAYS } from '@flywheel/shared/constants';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Spec section 9: bar labels cut to 12 characters (the tooltip keeps the full name). */
export const cutLabel = (s: string): string => (s.length > BAR_LABEL_MAX ? s.slice(0, BAR_LABEL_MAX) : s);

/**
 * Spec section 9: a day (YYYY-MM-DD...) is labelled 'day month' ('5 Mar') when the chart spans up to 90 days,
 * otherwise 'month year' ('Mar 2026').
 */
export function dateLabel(day: string, spanDays: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return day;
  const [, y, mo, d] = m;
  const month = MONTHS[Number(mo) - 1] ?? mo;
  return spanDays <= DAY_MONTH_LABEL_MAX_DAYS ? `${Number(d)} ${month}` : `${month} ${y}`;
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
