/** Calendar arithmetic on local days written as YYYY-MM-DD (UTC-based, so free of DST). */

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** `day` plus `n` calendar days. */
export const addDays = (day: string, n: number): string =>
  new Date((dayNumber(day) + n) * DAY_MS).toISOString().slice(0, 10);

/** How many days `to` lies after `from` (negative when before). */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      f = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'UTC',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** The calendar day (YYYY-MM-DD) of an instant in a workspace's timezone. */
export const localDay = (at: Date, timeZone: string): string => formatter(timeZone).format(at);

/** A Slack ts ("1700000000.000100") as a Date (millisecond precision). */
export const tsToDate = (ts: string): Date => new Date(Math.floor(Number(ts) * 1000));

const hourFormatters = new Map<string, Intl.DateTimeFormat>();

/** The local day and hour (0-23) of an instant in a workspace's timezone. */
export function localDayHour(at: Date, timeZone: string): { day: string; hour: number } {
  let f = hourFormatters.get(timeZone);
  if (!f) {
    const opts = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    } as const;
    try {
      f = new Intl.DateTimeFormat('en-CA', { ...opts, timeZone });
    } catch {
      f = new Intl.DateTimeFormat('en-CA', { ...opts, timeZone: 'UTC' });
    }
    hourFormatters.set(timeZone, f);
  }
  // en-CA formats as "2026-01-31, 13".
  const text = f.format(at);
  return { day: text.slice(0, 10), hour: Number(text.slice(12, 14)) % 24 };
}
