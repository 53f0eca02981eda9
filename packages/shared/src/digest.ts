import { z } from 'zod';
import { isCalendarDay, latestDay } from './input.ts';
import { DAY_CODES, wallClock, zonedTime, type DayCode } from './clock.ts';
import { questionSchema } from './questions.ts';
import { threadSchema } from './conversations.ts';

/*
 * The weekly digest (docs/product/digest.md): each admin who opts in, per workspace, gets the last week of that
 * workspace (Monday to Sunday in its timezone) every week, on Monday at 09:00 there unless they choose another day
 * and hour, by e-mail and, if they ask, as a Slack DM from the bot. GET /api/v0/digest/:teamId answers the digest of a week (the preview page);
 * GET/POST /api/v0/digest/settings/:teamId read and change the caller's own subscription.
 */

/** By default the digest goes out on Mondays at 09:00, local time of the workspace; each admin may choose. */
export const DIGEST_DEFAULT_DAY: DayCode = 'mon';
export const DIGEST_DEFAULT_HOUR = 9;
/** How many of each list (questions, threads, members, sends) a digest names. */
export const DIGEST_LIST_SIZE = 5;
/**
 * A digest missed at its time (no process ran then) still goes out until this long after it; later it is skipped,
 * not sent stale (and never right before the next one).
 */
export const DIGEST_CATCH_UP_HOURS = 72;

/** When an admin gets their digest: a weekday and a local hour (0-23) of the workspace's timezone. */
export type DigestSchedule = { day: DayCode; hour: number };
export const DEFAULT_DIGEST_SCHEDULE: DigestSchedule = { day: DIGEST_DEFAULT_DAY, hour: DIGEST_DEFAULT_HOUR };

const DAY_MS = 86_400_000;
const dayOf = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
const addDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const partsOf = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return { year: y!, month: m!, day: d! };
};

/** The instant a local day starts in a zone. */
export const dayStart = (day: string, timeZone: string): number =>
  zonedTime({ ...partsOf(day), hour: 0, minute: 0 }, timeZone);

export type DigestWeek = {
  /** The Monday and Sunday of the week (local days of the workspace). */
  start: string;
  end: string;
  /** When the digest of that week goes out: the first chosen weekday after it, at the chosen local hour (ms). */
  sendAt: number;
};

/** The week (Monday to Sunday) a local day falls in, and when its digest goes out. */
export function weekOfDay(
  day: string,
  timeZone: string,
  schedule: DigestSchedule = DEFAULT_DIGEST_SCHEDULE,
): DigestWeek {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  const start = addDay(day, -weekday);
  const sendDay = partsOf(addDay(start, 7 + DAY_CODES.indexOf(schedule.day)));
  return {
    start,
    end: addDay(start, 6),
    sendAt: zonedTime({ ...sendDay, hour: schedule.hour, minute: 0 }, timeZone),
  };
}

/** The last whole week before `now` in the zone (Monday to Sunday). */
export function lastWholeWeek(
  now: number,
  timeZone: string,
  schedule: DigestSchedule = DEFAULT_DIGEST_SCHEDULE,
): DigestWeek {
  const w = wallClock(now, timeZone);
  const today = dayOf(w.year, w.month, w.day);
  return weekOfDay(addDay(today, -w.weekday - 7), timeZone, schedule);
}

/** The weeks whose digest went out last before `now` and goes out next after it. */
function around(now: number, timeZone: string, schedule: DigestSchedule) {
  const last = lastWholeWeek(now, timeZone, schedule);
  const weeks = [-1, 0, 1].map((n) => weekOfDay(addDay(last.start, 7 * n), timeZone, schedule));
  return {
    sent: weeks.filter((w) => w.sendAt <= now).pop()!,
    next: weeks.find((w) => w.sendAt > now)!,
  };
}

/**
 * The digest due at `now`, or null: the latest week whose send time has come, until DIGEST_CATCH_UP_HOURS after
 * that time.
 */
export function dueWeek(
  now: number,
  timeZone: string,
  schedule: DigestSchedule = DEFAULT_DIGEST_SCHEDULE,
): DigestWeek | null {
  const { sent } = around(now, timeZone, schedule);
  return now < sent.sendAt + DIGEST_CATCH_UP_HOURS * 3_600_000 ? sent : null;
}

/** When the next digest goes out after `now` (ms). */
export function nextSendAt(
  now: number,
  timeZone: string,
  schedule: DigestSchedule = DEFAULT_DIGEST_SCHEDULE,
): number {
  return around(now, timeZone, schedule).next.sendAt;
}

const scheduleFields = {
  day: z.enum(DAY_CODES, { error: `day must be one of ${DAY_CODES.join(', ')}` }).optional(),
  hour: z
    .number({ error: 'hour must be a whole number from 0 to 23' })
    .int('hour must be a whole number from 0 to 23')
    .min(0, 'hour must be a whole number from 0 to 23')
    .max(23, 'hour must be a whole number from 0 to 23')
    .optional(),
};

export const digestSettingsBody = z.object({
  team_id: z.string({ error: 'team_id is required' }).min(1, 'team_id is required'),
  email: z.boolean({ error: 'email must be true or false' }),
  slack_dm: z.boolean({ error: 'slack_dm must be true or false' }),
  /** When to send it (default: as before, else Monday 09:00). */
  ...scheduleFields,
});
export type DigestSettingsBody = z.infer<typeof digestSettingsBody>;

export const digestSettingsResponse = z.object({
  email: z.boolean(),
  slack_dm: z.boolean(),
  /** Where the e-mail goes (the caller's account address). */
  email_address: z.string(),
  day: z.enum(DAY_CODES),
  hour: z.number().int(),
  /** Whether Flywheel knows the caller's Slack user here (Add as Admin links it): needed for the DM. */
  slack_user_known: z.boolean(),
  timezone: z.string(),
  /** When the next digest goes out (ISO), whether or not the caller gets it. */
  next_at: z.string(),
  /** The weeks the caller was sent, newest first (the last 8). */
  sent: z.array(
    z.object({
      week_start: z.string(),
      email_sent_at: z.string().nullable(),
      slack_receipt_id: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export type DigestSettingsResponse = z.infer<typeof digestSettingsResponse>;

/** GET /digest/:teamId?week=YYYY-MM-DD (a day of the week wanted; default: the last whole week). */
export const digestQuery = z.object({
  week: z
    .string({ error: 'week must be a date YYYY-MM-DD' })
    .refine(isCalendarDay, 'week must be a date YYYY-MM-DD')
    .refine((d) => d <= latestDay(), 'week must not be in the future')
    .optional(),
});
export type DigestQuery = z.infer<typeof digestQuery>;

const numberSchema = z.object({
  name: z.string(),
  value: z.number(),
  previous: z.number(),
  /** Unsigned percent of the change (one decimal); 'new' from 0; 'incomplete' when the week before is not all held. */
  percent: z.number(),
  sign: z.enum(['+', '-']),
  comparison: z.enum(['change', 'new', 'incomplete']),
});
export type DigestNumber = z.infer<typeof numberSchema>;

const memberRef = z.object({ member_id: z.string(), name: z.string() });
const memberGroup = z.object({ count: z.number().int(), members: z.array(memberRef), link: z.string() });

export const digestSchema = z.object({
  team_id: z.string(),
  workspace_name: z.string(),
  timezone: z.string(),
  week: z.object({ start: z.string(), end: z.string() }),
  previous_week: z.object({ start: z.string(), end: z.string() }),
  /** Whether the week is over (a digest of the current week is a preview of the week so far). */
  complete: z.boolean(),
  numbers: z.array(numberSchema),
  response_times: z.object({
    questions: z.number().int(),
    answered: z.number().int(),
    median_seconds: z.number().nullable(),
    within_24h: z.number().nullable(),
    link: z.string(),
  }),
  /** Questions unanswered now (asked in the last 7 days), newest first. */
  questions: z.object({ total: z.number().int(), top: z.array(questionSchema), link: z.string() }),
  members: z.object({ new: memberGroup, slipping: memberGroup, returning: memberGroup }),
  threads: z.object({ top: z.array(threadSchema), link: z.string() }),
  sends: z.object({
    count: z.number().int(),
    recipients: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    /** The week's sends with failures, most failed first. */
    with_failures: z.array(
      z.object({
        receipt_id: z.number().int(),
        description: z.string(),
        total: z.number().int(),
        failed: z.number().int(),
        link: z.string(),
      }),
    ),
    link: z.string(),
  }),
});
export type Digest = z.infer<typeof digestSchema>;
