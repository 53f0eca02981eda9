/*
 * Wall-clock schedules in a workspace's timezone: One Time, Every Day and Weekly at
 * HH:MM local time. 09:00 Europe/London stays 09:00 on both sides of a daylight-saving change. Pure functions
 * on epoch milliseconds, so the server, the web app and tests share one definition.
 */

/** Day codes. */
export const DAY_CODES = ['mon', 'tue', 'wed', 'thurs', 'fri', 'sat', 'sun'] as const;
export type DayCode = (typeof DAY_CODES)[number];
export const FREQUENCIES = ['Everyday', 'Weekly', 'onetime'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

type Wall = { year: number; month: number; day: number; hour: number; minute: number; weekday: number };

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

/** The local wall clock of an instant; weekday 0 = Monday. */
export function wallClock(at: number, timeZone: string): Wall {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday: WEEKDAYS[parts.weekday as string] ?? 0,
  };
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(at: number, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  return Math.round((asUtc - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/**
 * The instant a local date and time happen in a zone. A time skipped by a spring-forward change runs at the
 * same distance after the change (02:30 on a 02:00->03:00 night runs at 03:30); a time that happens twice in
 * autumn runs the first time.
 */
export function zonedTime(
  d: { year: number; month: number; day: number; hour: number; minute: number },
  timeZone: string,
): number {
  const guess = Date.UTC(d.year, d.month - 1, d.day, d.hour, d.minute);
  // The zone's offsets around that day (a change happens at most once within it).
  const offsets = new Set([-12, 0, 12].map((h) => offsetMinutes(guess + h * 3_600_000, timeZone)));
  const tries = [...offsets].map((o) => guess - o * 60_000);
  const [first, second] = [Math.min(...tries), Math.max(...tries)];
  const candidates = tries.filter((t) => {
    const w = wallClock(t, timeZone);
    return (
      w.year === d.year &&
      w.month === d.month &&
      w.day === d.day &&
      w.hour === d.hour &&
      w.minute === d.minute
    );
  });
  if (candidates.length > 0) return Math.min(...candidates);
  // Skipped (spring forward): keep the wall distance from the start of the gap.
  return Math.max(first, second);
}

export type Recurrence =
  | { frequency: 'onetime'; at: number }
  | { frequency: 'Everyday'; time: string }
  | { frequency: 'Weekly'; time: string; days: DayCode[] };

/**
 * The recurrence of a stored schedule (an action's or a form's): a one-time run at `at` (epoch ms), Every Day at
 * `time`, or Weekly on `days` at `time`; null when the fields do not make one.
 */
export function recurrenceOf(s: {
  frequency: Frequency | null;
  time: string | null;
  days: readonly string[];
  at: number | null;
}): Recurrence | null {
  if (s.frequency === 'onetime') return s.at === null ? null : { frequency: 'onetime', at: s.at };
  if (s.frequency === 'Everyday' && s.time) return { frequency: 'Everyday', time: s.time };
  if (s.frequency === 'Weekly' && s.time)
    return {
      frequency: 'Weekly',
      time: s.time,
      days: s.days.filter((d): d is DayCode => DAY_CODES.includes(d as DayCode)),
    };
  return null;
}

/** HH:MM (24 h) as hours and minutes, or null. */
export function parseTime(time: string): { hour: number; minute: number } | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return m ? { hour: Number(m[1]), minute: Number(m[2]) } : null;
}

/** The first run strictly after `after` (epoch ms), or null when a one-time run is past. */
export function nextRun(r: Recurrence, after: number, timeZone: string): number | null {
  if (r.frequency === 'onetime') return r.at > after ? r.at : null;
  const t = parseTime(r.time);
  if (!t) return null;
  const days = r.frequency === 'Weekly' ? new Set(r.days.map((d) => DAY_CODES.indexOf(d))) : null;
  if (days && days.size === 0) return null;
  const today = wallClock(after, timeZone);
  // Walk local calendar days from today (UTC arithmetic on the local date is DST-free).
  for (let i = 0; i < 8; i++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + i));
    const weekday = (date.getUTCDay() + 6) % 7;
    if (days && !days.has(weekday)) continue;
    const at = zonedTime(
      { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), ...t },
      timeZone,
    );
    if (at > after) return at;
  }
  return null;
}

/** A one-time schedule lies 15 minutes to 30 days ahead. */
export const MIN_LEAD_MS = 15 * 60_000;
export const MAX_LEAD_MS = 30 * 86_400_000;

/** 'DD/MM/YYYY' and 'HH:MM' in a zone, as the instant, or null when either is not a real date or time. */
export function parseLocalDateTime(date: string, time: string, timeZone: string): number | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(date);
  const t = parseTime(time);
  if (!m || !t) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day)
    return null;
  return zonedTime({ year, month, day, ...t }, timeZone);
}
