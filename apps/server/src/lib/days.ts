/** Calendar arithmetic on local days written as YYYY-MM-DD (UTC-based, so free of DST). */

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** `day` plus `n` calendar days. */
export const addDays = (day: string, n: number): string =>
  new Date((dayNumber(day) + n) * DAY_MS).toISOString().slice(0, 10);

/** How many days `to` lies after `from` (negative when before). */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);
