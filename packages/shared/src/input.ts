import { z } from 'zod';
import { hasLoneSurrogate } from './text.ts';

/*
 * Input rules every contract shares (issue 18): real calendar dates, bounded ranges, text without control
 * characters, ids that fit the database. One definition for the route schemas, the web forms and the tests.
 */

/** The longest window any time filter may cover, in days (the presets 7, 14, 90 and 365 fit). */
export const MAX_RANGE_DAYS = 366;
export const TIME_FILTER_PRESETS = [7, 14, 90, 365] as const;

/** The largest row id PostgreSQL's `integer` holds. */
export const MAX_ROW_ID = 2_147_483_647;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** True for a real calendar day written YYYY-MM-DD (2024-02-29 yes, 2023-02-29 and 2024-02-30 no). */
export function isCalendarDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
}

/**
 * The latest calendar day anywhere on Earth right now (UTC+14). A date after it is in the future in every
 * timezone, so a contract can refuse it without knowing the workspace's timezone.
 */
export function latestDay(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

/** Days from `start` to `end`, both included (both real calendar days). */
export function spanOfDays(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
}

export const RANGE_MESSAGES = {
  both: 'Choose both a start and an end date',
  future: 'Dates cannot be in the future',
  order: 'The start date must not be after the end date',
  span: `A custom range can cover at most ${MAX_RANGE_DAYS} days`,
} as const;

/**
 * For custom ranges, plus a maximum span: the first rule a range breaks, or null. `today` is
 * the caller's today (the browser's, or `latestDay()` where the timezone is not known).
 */
export function dateRangeProblem(start: string, end: string, today = latestDay()): string | null {
  if (!start || !end) return RANGE_MESSAGES.both;
  if (!isCalendarDay(start)) return `${start} is not a real date`;
  if (!isCalendarDay(end)) return `${end} is not a real date`;
  if (start > today || end > today) return RANGE_MESSAGES.future;
  if (start > end) return RANGE_MESSAGES.order;
  if (spanOfDays(start, end) > MAX_RANGE_DAYS) return RANGE_MESSAGES.span;
  return null;
}

/** A calendar day field: YYYY-MM-DD and a real date. */
export const calendarDay = (field: string) =>
  z
    .string({ error: `${field} must be a date like 2024-05-31` })
    .regex(DAY, `${field} must be a date like 2024-05-31`)
    .refine(isCalendarDay, `${field} is not a real date`);

/** A number of days ending today: 1 to MAX_RANGE_DAYS. */
export const rangeDays = (field: string) =>
  z.coerce
    .number({ error: `${field} must be a number of days` })
    .int(`${field} must be a whole number of days`)
    .min(1, `${field} must be at least 1`)
    .max(MAX_RANGE_DAYS, `${field} must be at most ${MAX_RANGE_DAYS}`);

/** NUL and the other C0 control characters except tab, line feed and carriage return (and DEL). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const controlCharacterMessage = (field: string) => `${field} must not contain control characters`;

/** Half of a surrogate pair (half of an emoji): no JSON, jsonb column or Slack message holds it. */
export const loneSurrogateMessage = (field: string) =>
  `${field} must not contain half of a character (a broken emoji)`;

/** Free text: at most `max` characters, no control characters, no half characters. */
export const safeText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .max(max, `${field} must be at most ${max} characters`)
    .refine((v) => !CONTROL_CHARACTERS.test(v), controlCharacterMessage(field))
    .refine((v) => !hasLoneSurrogate(v), loneSurrogateMessage(field));

/** A Slack id (team, member, channel): 1 to 32 characters, no control characters. */
export const slackId = (field: string) =>
  safeText(field, 32).refine((v) => v.length > 0, `${field} is required`);

/** A row id of ours (tags, tasks): a whole number that fits the database. */
export const rowId = (field: string) =>
  z.coerce
    .number({ error: `${field} must be an id` })
    .int(`${field} must be an id`)
    .positive(`${field} must be an id`)
    .max(MAX_ROW_ID, `${field} must be an id`);
