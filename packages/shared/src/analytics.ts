import { z } from 'zod';
import { TREND_SLOTS_HOURS } from './constants.ts';
import { activityFilterSchema, timeFilterSchema } from './members.ts';

/**
 * Contracts of Home and Analytics (spec sections 2, 3, 7). Every number is computed in the workspace's
 * timezone from the rollups. A time filter is static (last N days, today included) or dynamic (start and
 * end local dates, both included).
 */

const teamId = z.string({ error: 'team_id is required' }).min(1, 'team_id is required').max(32);
const channelIds = z.array(z.string().min(1).max(32)).max(500).default([]);

/** Query string of the GET Home calls: `days` (7, 14, 90, 365; default 7) or `start_date` + `end_date`. */
export const rangeQuery = z.object({
  days: z.coerce.number().int().min(1).max(3660).optional(),
  start_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'start_date must be YYYY-MM-DD')
    .optional(),
  end_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'end_date must be YYYY-MM-DD')
    .optional(),
});

/** Spec section 3: Summary card (name, val, percent, sign). */
export const summaryCardSchema = z.object({
  name: z.string(),
  val: z.number(),
  percent: z.number(),
  sign: z.enum(['+', '-']),
});
export type SummaryCard = z.infer<typeof summaryCardSchema>;

/** Spec section 3: Activity row (per day, optionally per channel or member). */
export const activityRowSchema = z.object({
  date_of_data: z.string(),
  messages: z.number(),
  replies: z.number(),
  reactions: z.number(),
  member_id: z.string().optional(),
  channel_id: z.string().optional(),
  channel_name: z.string().optional(),
  name: z.string().optional(),
});
export type ActivityRow = z.infer<typeof activityRowSchema>;

/** Per-channel totals (Home 'Activity' / 'Top Channels' bars, Channel Activity table). */
export const channelActivitySchema = z.object({
  channel_id: z.string(),
  channel_name: z.string(),
  messages: z.number(),
  replies: z.number(),
  reactions: z.number(),
  activity: z.number(),
});
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

/** Spec section 3: Members change row. */
export const membersChangeRowSchema = z.object({
  date_of_data: z.string(),
  new_members: z.number(),
  dropped_members: z.number(),
  active_members: z.number(),
  overall_members: z.number(),
});
export type MembersChangeRow = z.infer<typeof membersChangeRowSchema>;

/** Spec section 3: Word-cloud item (relevance 0..1; shown as whole percent of relevance x 100). */
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
  tags: z.array(z.coerce.number().int().positive()).max(100).default([]),
});

/** POST /analytics/channelsactivityanalytics */
export const channelsActivityBody = timeFilterBody.extend({
  activity_filter: activityFilterSchema.optional(),
});

/** Spec section 3: Bot details; upload payload botName, team_id, use_custom. */
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

/** Spec section 5: the bot name rules and their exact messages. */
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
