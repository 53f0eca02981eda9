import { z } from 'zod';
import { levelChangeSchema, levelsFilter } from './levels.ts';
import { memberSchema, tagSchema } from './directory.ts';
import {
  calendarDay,
  CONTROL_CHARACTERS,
  controlCharacterMessage,
  dateRangeProblem,
  MAX_RANGE_DAYS,
  rangeDays,
  rowId,
  safeText,
  slackId,
} from './input.ts';

/*
 * Members screen and member detail contracts. The filter payload:
 * team_id, time_filter, channels, activity_filter, base_filter, tags; plus search, sort and paging, which the
 * server applies so a 50,000-member workspace never travels whole.
 */

/** Days a static time filter may cover (the UI offers 7, 14, 90 and 365). */
export const MAX_FILTER_DAYS = MAX_RANGE_DAYS;

/**
 * time_filter {type static or dynamic, days, start_date, end_date}; days default 7. A custom range is
 * real calendar days, start not after end, neither in the future, at most MAX_RANGE_DAYS days (issue 18).
 */
export const timeFilterSchema = z
  .object({
    type: z.enum(['static', 'dynamic'], { error: "time_filter.type must be 'static' or 'dynamic'" }),
    days: rangeDays('time_filter.days').optional(),
    start_date: calendarDay('time_filter.start_date').optional(),
    end_date: calendarDay('time_filter.end_date').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'dynamic') return;
    if (!v.start_date || !v.end_date)
      ctx.addIssue({
        code: 'custom',
        message: 'A custom range needs both time_filter.start_date and time_filter.end_date',
      });
    else {
      const problem = dateRangeProblem(v.start_date, v.end_date);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });
export type TimeFilter = z.infer<typeof timeFilterSchema>;

export const OPERATOR_VALUES = ['>', '<', '='] as const;
export type Operator = (typeof OPERATOR_VALUES)[number];

/** One count comparison ({count, operator}) of an activity filter, its messages naming `name`. */
export const comparison = (name: string) =>
  z
    .object({
      count: z.coerce
        .number({ error: `${name}.count must be a number` })
        .int(`${name}.count must be a whole number`)
        .min(0, `${name}.count must be 0 or more`),
      operator: z.enum(OPERATOR_VALUES, { error: `${name}.operator must be one of >, < or =` }),
    })
    .nullish();

/** activity_filter {type, message_filter, reaction_filter, reply_filter each {count, operator}}. */
export const activityFilterSchema = z.object({
  type: z.enum(['AND', 'OR'], { error: "activity_filter.type must be 'AND' or 'OR'" }).default('AND'),
  message_filter: comparison('activity_filter.message_filter'),
  reaction_filter: comparison('activity_filter.reaction_filter'),
  reply_filter: comparison('activity_filter.reply_filter'),
});
export type ActivityFilter = z.infer<typeof activityFilterSchema>;

/** Epoch milliseconds between 2000 and 2100 (a join or leave window is a time, not a day count). */
export const epochMs = (field: string) =>
  z
    .number({ error: `${field} must be a time in milliseconds` })
    .int(`${field} must be a time in milliseconds`)
    .min(Date.UTC(2000, 0, 1), `${field} must be a time after 2000`)
    .max(Date.UTC(2100, 0, 1), `${field} must be a time before 2100`);

/**
 * base_filter {type team_join or team_left, startts, endts or time_filter}: members who joined (or left)
 * the workspace inside the window. startts and endts are epoch milliseconds.
 */
export const baseFilterSchema = z
  .object({
    type: z.enum(['team_join', 'team_left'], {
      error: "base_filter.type must be 'team_join' or 'team_left'",
    }),
    startts: epochMs('base_filter.startts').optional(),
    endts: epochMs('base_filter.endts').optional(),
    time_filter: timeFilterSchema.optional(),
  })
  .superRefine((v, ctx) => {
    const hasTs = v.startts !== undefined || v.endts !== undefined;
    if (!v.time_filter && (v.startts === undefined || v.endts === undefined))
      ctx.addIssue({
        code: 'custom',
        message: 'base_filter needs a window: startts and endts, or a time_filter',
      });
    else if (hasTs && v.startts !== undefined && v.endts !== undefined && v.startts > v.endts)
      ctx.addIssue({ code: 'custom', message: 'base_filter.startts must not be after base_filter.endts' });
  });
export type BaseFilter = z.infer<typeof baseFilterSchema>;

export const MEMBER_SORT_FIELDS = [
  'real_name',
  'display_name',
  'email',
  'messages',
  'reactions',
  'replies',
  'activity',
  'last_active',
  'join_time',
] as const;
export type MemberSortField = (typeof MEMBER_SORT_FIELDS)[number];

export const MEMBER_PAGE_SIZES = [5, 10, 25, 50, 100] as const;
/**
 * Rows per page of the Members table. A first design said 5; at 500 members that is 100 pages, so the table
 * opens at 25 (issue 19) and the rows-per-page select still offers 5.
 */
export const DEFAULT_MEMBER_PAGE_SIZE = 25;

/** The filters, shared by the table (with paging) and the CSV export. */
export const membersFilterSchema = z.object({
  team_id: slackId('team_id'),
  time_filter: timeFilterSchema.default({ type: 'static', days: 7 }),
  channels: z
    .array(slackId('channels[]'), { error: 'channels must be a list of channel ids' })
    .max(1000, 'channels: at most 1000 channels')
    .nullish(),
  /** How the channels combine: members of any of them (OR, the default) or of every one (AND). */
  channel_type: z.enum(['AND', 'OR'], { error: "channel_type must be 'AND' or 'OR'" }).optional(),
  activity_filter: activityFilterSchema.nullish(),
  base_filter: baseFilterSchema.nullish(),
  tags: z
    .array(rowId('tags[]'), { error: 'tags must be a list of tag ids' })
    .max(200, 'tags: at most 200 tags')
    .nullish(),
  /** Members holding any of these engagement levels (packages/shared/src/levels.ts). */
  levels: levelsFilter,
  search: safeText('search', 200).optional(),
  sort: z
    .object({
      field: z.enum(MEMBER_SORT_FIELDS, {
        error: `sort.field must be one of ${MEMBER_SORT_FIELDS.join(', ')}`,
      }),
      direction: z.enum(['asc', 'desc'], { error: "sort.direction must be 'asc' or 'desc'" }).default('desc'),
    })
    .default({ field: 'activity', direction: 'desc' }),
});
export type MembersFilter = z.input<typeof membersFilterSchema>;

/** POST /members/getmembersdata */
export const membersDataBody = membersFilterSchema.extend({
  page: z.coerce
    .number()
    .int('page must be a whole number')
    .min(1, 'page starts at 1')
    .max(1_000_000, 'page must be at most 1000000')
    .default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1, 'page_size must be at least 1')
    .max(500, 'page_size must be at most 500')
    .default(DEFAULT_MEMBER_PAGE_SIZE),
});
export type MembersDataRequest = z.input<typeof membersDataBody>;

export const membersDataResponse = z.object({
  data: z.array(memberSchema),
  total: z.number(),
  /**
   * How many of the `total` matches left the workspace (deactivated or deleted in Slack; `deleted` on their
   * row). Analytics' Overall members counts the others.
   */
  left: z.number().default(0),
  page: z.number(),
  page_size: z.number(),
});
export type MembersDataResponse = z.infer<typeof membersDataResponse>;

/** POST /members/exportmembersdata: the filters, or just the chosen members (member_ids). */
export const membersExportBody = membersFilterSchema.extend({
  member_ids: z.array(slackId('member_ids[]')).max(100_000).optional(),
});
export type MembersExportRequest = z.input<typeof membersExportBody>;
export const MEMBERS_CSV_TITLE = 'Members Data';
export const MEMBERS_CSV_COLUMNS = ['UserName', 'Email'] as const;

/* Tags (spec: Tag assignment: tags, team_id, users [{id}]). */

const tagName = z
  .string({ error: 'Enter a tag name' })
  .trim()
  .min(1, 'Enter a tag name')
  .max(40, 'A tag name can be at most 40 characters')
  .refine((v) => !CONTROL_CHARACTERS.test(v), controlCharacterMessage('name'));

export const createTagBody = z.object({ team_id: slackId('team_id'), name: tagName });
export const createTagResponse = z.object({ data: tagSchema, message: z.string() });

export const addTagsBody = z.object({
  team_id: slackId('team_id'),
  tags: z
    .array(z.object({ id: rowId('tags[].id'), name: safeText('tags[].name', 200).optional() }), {
      error: 'Select a tag',
    })
    .min(1, 'Select a tag')
    .max(100),
  users: z
    .array(z.object({ id: slackId('users[].id') }), { error: 'Select at least one member' })
    .min(1, 'Select at least one member')
    .max(100_000),
});
export type AddTagsRequest = z.input<typeof addTagsBody>;

/* Member detail (spec: Action log row, Pie rows). */

export const memberChannelSchema = z.object({ channel_id: z.string(), channel_name: z.string() });

export const memberInfoSchema = memberSchema.extend({
  tags: z.array(tagSchema),
  channels: z.array(memberChannelSchema),
  is_owner: z.boolean(),
  left_at: z.number(),
  /**
   * The first day of the history Flywheel holds (YYYY-MM-DD; null: none yet). Slack gives no join date for a
   * member who joined before it (join_time 0).
   */
  history_start: z.string().nullable().optional(),
  /** The engagement level, the local day it began, and its changes (newest first, at most 50). */
  level_since: z.string().nullable().optional(),
  level_history: z.array(levelChangeSchema).optional(),
});
export type MemberInfo = z.infer<typeof memberInfoSchema>;

export const dailyActivitySchema = z.object({
  date_of_data: z.string(),
  messages: z.number(),
  replies: z.number(),
  reactions: z.number(),
});
export type DailyActivity = z.infer<typeof dailyActivitySchema>;

export const pieRowSchema = z.object({
  channel_id: z.string(),
  channel_name: z.string(),
  activity: z.number(),
});
export type PieRow = z.infer<typeof pieRowSchema>;

/** Messages, replies and reactions in one channel (a member's per-channel table; analytics adds `activity`). */
export const channelTotalsSchema = z.object({
  channel_id: z.string(),
  channel_name: z.string(),
  messages: z.number(),
  replies: z.number(),
  reactions: z.number(),
});
export type ChannelTotals = z.infer<typeof channelTotalsSchema>;

export const ACTIVITY_TYPES = ['message', 'reply', 'reaction'] as const;
export const actionLogRowSchema = z.object({
  ts: z.string(),
  /** When the action happened, epoch milliseconds (a reaction's own time, not its message's). */
  at: z.number(),
  real_name: z.string(),
  channel_name: z.string(),
  channel_id: z.string(),
  content: z.string(),
  activity_type: z.enum(ACTIVITY_TYPES),
  /** A message row: whether it is pinned in its channel (its Pin or Unpin action). */
  is_pinned: z.boolean().optional(),
});
export type ActionLogRow = z.infer<typeof actionLogRowSchema>;

/** Days the member detail's Analytics tab offers (default 7). */
export const MEMBER_DETAIL_DAY_OPTIONS = [7, 14, 90, 365] as const;
