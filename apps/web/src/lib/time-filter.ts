import { dateRangeProblem } from '@flywheel/shared/input';

/** Time filter shared by every screen: the last N days, or a custom range of local days. */
export type TimeChoice =
  { type: 'static'; days: number } | { type: 'dynamic'; start_date: string; end_date: string };

export const DEFAULT_TIME: TimeChoice = { type: 'static', days: 7 };

/**
 * Custom ranges need real dates, start not after end, neither in the future, and at most
 * MAX_RANGE_DAYS days (the server's contract, `dateRangeProblem` in @flywheel/shared/input).
 */
export function rangeProblem(start: string, end: string, today: string): string | null {
  return dateRangeProblem(start, end, today);
}

/** Today as YYYY-MM-DD in the browser's timezone. */
export function todayString(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

export const timeLabel = (t: TimeChoice) =>
  t.type === 'static' ? `Last ${t.days} days` : `${t.start_date} – ${t.end_date}`;

/** How many days a time filter covers (both ends included), for the date-label rule. */
export function spanDays(t: TimeChoice): number {
  if (t.type === 'static') return t.days;
  const ms = Date.parse(`${t.end_date}T00:00:00Z`) - Date.parse(`${t.start_date}T00:00:00Z`);
  return Math.round(ms / 86_400_000) + 1;
}

/** The query of the GET Home calls, as an endpoint contract's `query`: `{ days }` or `{ start_date, end_date }`. */
export const rangeQueryOf = (t: TimeChoice) =>
  t.type === 'static' ? { days: t.days } : { start_date: t.start_date, end_date: t.end_date };

/** Query string of the GET Home calls: `days=N` or `start_date=..&end_date=..`. */
export function rangeQueryString(t: TimeChoice): string {
  return t.type === 'static'
    ? `days=${t.days}`
    : `start_date=${encodeURIComponent(t.start_date)}&end_date=${encodeURIComponent(t.end_date)}`;
}
