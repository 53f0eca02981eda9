import { z } from 'zod';
import { TREND_SLOTS_HOURS } from './constants.ts';
import {
  calendarDay,
  CONTROL_CHARACTERS,
  controlCharacterMessage,
  dateRangeProblem,
  MAX_ROW_ID,
  rangeDays,
  rowId,
  safeText,
  slackId,
} from './input.ts';
import {
  activityFilterSchema,
  channelTotalsSchema,
  dailyActivitySchema,
  timeFilterSchema,
} from './members.ts';

/**
 * Contracts of Home and Analytics. Every number is computed in the workspace's
 * timezone from the rollups. A time filter is static (last N days, today included) or dynamic (start and
 * end local dates, both included).
 */

const teamId = slackId('team_id');
/** Channels of a per-day-and-channel answer: at most MAX_CHANNELS, so an answer is at most 366 x 100 rows. */
export const MAX_CHANNELS = 100;
const channelIds = z
  .array(slackId('channels[]'), { error: 'channels must be a list of channel ids' })
  .max(MAX_CHANNELS, `channels: at most ${MAX_CHANNELS} channels`)
  .default([]);

/**
 * Query string of the GET Home calls: `days` (7, 14, 90, 365; default 7) or `start_date` + `end_date` (both;
 * the custom-range rules of `dateRangeProblem`).
 */
export const rangeQuery = z
  .object({
    days: rangeDays('days').optional(),
    start_date: calendarDay('start_date').optional(),
    end_date: calendarDay('end_date').optional(),
  })
  .superRefine((v, ctx) => {
    if (Boolean(v.start_date) !== Boolean(v.end_date))
      ctx.addIssue({ code: 'custom', message: 'A custom range needs both start_date and end_date' });
    else if (v.start_date && v.end_date) {
      const problem = dateRangeProblem(v.start_date, v.end_date);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });

/**
 * What a card's change compares: 'change' (percent and sign against the period before), 'new' (nothing in the
 * period before: no percent to show), 'incomplete' (the period before starts before the history Flywheel
 * holds, so a percent would mislead).
 */
export const CARD_COMPARISONS = ['change', 'new', 'incomplete'] as const;
export type CardComparison = (typeof CARD_COMPARISONS)[number];

/** Summary card (name, val, percent, sign), and what the change compares. */
export const summaryCardSchema = z.object({
  name: z.string(),
  val: z.number(),
  percent: z.number(),
  sign: z.enum(['+', '-']),
  comparison: z.enum(CARD_COMPARISONS).optional(),
  /** The first day of the history Flywheel holds (YYYY-MM-DD), when the comparison is 'incomplete'. */
  history_start: z.string().nullish(),
});
export type SummaryCard = z.infer<typeof summaryCardSchema>;

/** Activity row (per day, optionally per channel or member). */
export const activityRowSchema = dailyActivitySchema.extend({
  member_id: z.string().optional(),
  channel_id: z.string().optional(),
  channel_name: z.string().optional(),
  name: z.string().optional(),
});
export type ActivityRow = z.infer<typeof activityRowSchema>;

/** Per-channel totals (Home 'Activity' / 'Top Channels' bars, Channel Activity table). */
export const channelActivitySchema = channelTotalsSchema.extend({ activity: z.number() });
export type ChannelActivity = z.infer<typeof channelActivitySchema>;

/** Per-member totals (Top Performing Members, Members Activity table). */
export const memberActivitySchema = z.object({
  member_id: z.string(),
  real_name: z.string(),
  display_name: z.string(),
  first_name: z.string(),
  email: z.string(),
  messages: z.number(),
  replies: z.number(),
  reactions: z.number(),
  activity: z.number(),
});
export type MemberActivity = z.infer<typeof memberActivitySchema>;

/** Members change row. */
export const membersChangeRowSchema = z.object({
  date_of_data: z.string(),
  new_members: z.number(),
  dropped_members: z.number(),
  active_members: z.number(),
  overall_members: z.number(),
});
export type MembersChangeRow = z.infer<typeof membersChangeRowSchema>;

/** Word-cloud item (relevance 0..1; shown as whole percent of relevance x 100). */
export const wordCloudItemSchema = z.object({ parsed_value: z.string(), relevance: z.number() });
export type WordCloudItem = z.infer<typeof wordCloudItemSchema>;

export const timeFilterBody = z.object({ team_id: teamId, time_filter: timeFilterSchema });

/** POST /analytics/getactivitytrend -> { slots: { "00-02": n, ... } } */
export const activityTrendBody = timeFilterBody.extend({
  slot: z.coerce
    .number()
    .refine(
      (v) => (TREND_SLOTS_HOURS as readonly number[]).includes(v),
      'slot must be one of 2, 3, 4, 6, 8 or 12 hours',
    )
    .default(2),
});
export const activityTrendResponse = z.object({ slots: z.record(z.string(), z.number()) });

/** POST /analytics/activityanalytics and /analytics/memberschangeanalytics */
export const channelsTimeBody = timeFilterBody.extend({ channels: channelIds });

/** POST /analytics/membersactivityanalytics */
export const membersActivityBody = channelsTimeBody.extend({
  activity_filter: activityFilterSchema.optional(),
  tags: z.array(rowId('tags[]'), { error: 'tags must be a list of tag ids' }).max(100).default([]),
  /** Paging (most active first). Without page_size every matching member comes back (the CSV download). */
  page: z.coerce
    .number({ error: 'page must be a whole number from 1' })
    .int()
    .min(1)
    .max(1_000_000)
    .default(1),
  page_size: z.coerce
    .number({ error: 'page_size must be a whole number from 1 to 500' })
    .int()
    .min(1, 'page_size must be a whole number from 1 to 500')
    .max(500, 'page_size must be a whole number from 1 to 500')
    .optional(),
});

/** POST /analytics/channelsactivityanalytics */
export const channelsActivityBody = timeFilterBody.extend({
  activity_filter: activityFilterSchema.optional(),
});

/** Bot details; upload payload botName, team_id, use_custom. */
export const botDetailsSchema = z.object({
  bot_name: z.string(),
  bot_image: z.string().nullable(),
  use_custom: z.boolean(),
});
export type BotDetails = z.infer<typeof botDetailsSchema>;

/** Home task board card. */
export const taskSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  status: z.enum(['todo', 'doing', 'done']),
  position: z.number(),
});
export type Task = z.infer<typeof taskSchema>;

/** The bot name rules and their exact messages. */
export const BOT_NAME_MESSAGES = {
  length: 'Username should be 2-20 characters long!',
  edges: 'Username should not start or end with Hypen(s), Underscore(s) or Period(s)!',
  doubles:
    'Username should not contain two or more Hypens, Underscore , Periods or their combinations together!',
  charset: 'Username should only contain alphanumeric characters, Underscores, Hypens and Period!',
} as const;

/** The first rule a bot name breaks, or null when it is valid. */
export function botNameError(name: string): string | null {
  if (name.length < 2 || name.length > 20) return BOT_NAME_MESSAGES.length;
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return BOT_NAME_MESSAGES.charset;
  if (/^[._-]|[._-]$/.test(name)) return BOT_NAME_MESSAGES.edges;
  if (/[._-]{2,}/.test(name)) return BOT_NAME_MESSAGES.doubles;
  return null;
}

/** POST /alterbot/uploadinfo */
export const botUploadBody = z.object({
  team_id: teamId,
  botName: z.string({ error: BOT_NAME_MESSAGES.length }).superRefine((v, ctx) => {
    const error = botNameError(v);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  }),
  use_custom: z.boolean({ error: 'use_custom must be true (Flywheel image) or false (workspace image)' }),
});

// ---- Added with the server half of issue 5: response envelopes and the task/home bodies. ----

const dataOf = <T extends z.ZodTypeAny>(item: T) => z.object({ data: item });

/** GET /homepage/getcardsdata, GET /analytics/getanalyticscompare -> { data: SummaryCard[] } */
export const summaryCardsResponse = dataOf(z.array(summaryCardSchema));
/** GET /homepage/workspacehighlights, POST /analytics/activityanalytics -> { data: ActivityRow[] } */
export const activityRowsResponse = dataOf(z.array(activityRowSchema));
/** GET /homepage/getchanneldata, POST /analytics/channelsactivityanalytics -> { data: ChannelActivity[] } */
export const channelActivityResponse = dataOf(z.array(channelActivitySchema));
/** POST /homepage/getmostactivemembers, POST /analytics/membersactivityanalytics -> { data: MemberActivity[] } */
export const memberActivityResponse = dataOf(z.array(memberActivitySchema));
/** POST /analytics/membersactivityanalytics -> { data: MemberActivity[] (the page), total: every match } */
export const membersActivityResponse = memberActivityResponse.extend({ total: z.number().int() });
export type MembersActivityPage = z.infer<typeof membersActivityResponse>;
/** POST /analytics/memberschangeanalytics -> { data: MembersChangeRow[] } */
export const membersChangeResponse = dataOf(z.array(membersChangeRowSchema));
/** POST /analytics/wordcloud -> { data: WordCloudItem[] } (at most WORD_CLOUD_MAX, relevance descending) */
export const wordCloudResponse = dataOf(z.array(wordCloudItemSchema));
export const WORD_CLOUD_MAX = 100;

/** POST /homepage/getuseradmindata -> { data: { admin, members, admin_percent, members_percent } } */
export const userAdminSchema = z.object({
  /** Messages + replies by admins (Slack admins/owners and Flywheel-linked admins) in the window. */
  admin: z.number(),
  /** Messages + replies by everyone else. */
  members: z.number(),
  /** Whole-number percents summing to 100 (both 0 when there is no content: 'No Data Found'). */
  admin_percent: z.number(),
  members_percent: z.number(),
});
export type UserAdmin = z.infer<typeof userAdminSchema>;
export const userAdminResponse = dataOf(userAdminSchema);

/** POST /homepage/getmostactivemembers: the window and how many members (default 10, at most 100). */
export const mostActiveBody = timeFilterBody.extend({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(10),
});

/** GET /alterbot/getbotdetails, POST /alterbot/uploadinfo -> { data: BotDetails } (+ message on upload) */
export const botDetailsResponse = z.object({ data: botDetailsSchema, message: z.string().optional() });
export const BOT_UPLOAD_SUCCESS = 'Bot Details Uploaded Successfully!';
export const DEFAULT_BOT_NAME = 'Flywheel';

export const TASK_STATUSES = ['todo', 'doing', 'done'] as const;
const taskStatus = z.enum(TASK_STATUSES, { error: "status must be 'todo', 'doing' or 'done'" });
const taskTitle = z
  .string({ error: 'title is required' })
  .trim()
  .min(1, 'title must not be empty')
  .max(200, 'title must be at most 200 characters')
  .refine((v) => !CONTROL_CHARACTERS.test(v), controlCharacterMessage('title'));
const taskDescription = safeText('description', 2000);
const taskId = rowId('id');

/** POST /homepage/createtasks: appended at the end of its column (default 'todo'). */
export const createTaskBody = z.object({
  team_id: teamId,
  title: taskTitle,
  description: taskDescription.default(''),
  status: taskStatus.default('todo'),
});
/** PATCH /homepage/edittask: title and/or description. */
export const editTaskBody = z.object({
  team_id: teamId,
  id: taskId,
  title: taskTitle.optional(),
  description: taskDescription.optional(),
});
/** PATCH /homepage/droptask: move to `status` at 0-based `position` in that column (clamped to its end). */
export const dropTaskBody = z.object({
  team_id: teamId,
  id: taskId,
  status: taskStatus,
  position: z.coerce
    .number({ error: 'position must be a number' })
    .int('position must be a whole number')
    .min(0, 'position must be 0 or more')
    .max(MAX_ROW_ID, 'position is too large'),
});
export const taskResponse = dataOf(taskSchema);
/** The whole board, by status (todo, doing, done) then position. */
export const tasksResponse = dataOf(z.array(taskSchema));
