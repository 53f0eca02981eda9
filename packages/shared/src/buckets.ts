import { z } from 'zod';
import { levelsFilter } from './levels.ts';
import { rangeDays, rowId, safeText, slackId } from './input.ts';
import {
  activityFilterSchema,
  baseFilterSchema,
  comparison,
  epochMs,
  membersFilterSchema,
  timeFilterSchema,
} from './members.ts';

/*
 * Buckets and the advanced analytics table. A bucket is a saved filter
 * definition (the Members screen's vocabulary: join/leave window, channels, activity) evaluated on the current
 * data each time it runs; the members of its last run are kept for export, tags and audiences.
 */

/** Validation texts. */
export const BUCKET_NAME_EMPTY = "Bucket Name can't be empty";
export const BUCKET_CHANNELS_EMPTY = 'Select at least one channel';
/** A bucket never run shows this instead of a time. */
export const NOT_EXECUTED = 'Not-Executed';

/** The bucket CSV's columns, and the one row of an empty export. */
export const BUCKET_CSV_COLUMNS = [
  'Date of Data',
  'Member Name',
  'Member Email ID',
  'Channel Name',
  'Messages',
  'Reactions',
  'Replies',
  'Activity',
] as const;
export const BUCKET_CSV_EMPTY = 'no data';
export const BUCKET_CSV_TITLE = 'Bucket Data';

export const BUCKET_BASES = ['members', 'channels'] as const;
export type BucketBasis = (typeof BUCKET_BASES)[number];

/** Rows per page of the bucket table in Analytics . */
export const BUCKET_TABLE_PAGE_SIZES = [10, 25, 50, 100] as const;
export const BUCKET_NAME_MAX = 80;

/* The advanced analytics table (POST /analytics/performadvanceanalytics). */

const pageSize = z.coerce
  .number({ error: 'page_size must be a number' })
  .int('page_size must be a whole number')
  .min(1, 'page_size must be at least 1')
  .max(500, 'page_size must be at most 500')
  .default(10);

/**
 * The body: {team_id, time_filter, channels, split_by_date_and_channel, optional activity_filter, base_filter
 * {type, startts, endts}}; channel_type (AND/OR) and paging added. The filters are the Members screen's.
 */
export const advanceAnalyticsFilter = membersFilterSchema
  .pick({
    team_id: true,
    time_filter: true,
    channels: true,
    channel_type: true,
    activity_filter: true,
    base_filter: true,
    levels: true,
  })
  .extend({
    split_by_date_and_channel: z
      .boolean({ error: 'split_by_date_and_channel must be true or false' })
      .default(false),
  });
export type AdvanceAnalyticsFilter = z.input<typeof advanceAnalyticsFilter>;

export const advanceAnalyticsBody = advanceAnalyticsFilter.extend({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page starts at 1')
    .max(1_000_000, 'page must be at most 1000000')
    .default(1),
  page_size: pageSize,
});
export type AdvanceAnalyticsRequest = z.input<typeof advanceAnalyticsBody>;

/**
 * One row of the bucket table and of its CSV: a member over the window (date_of_data is the window, channel
 * the chosen channels), or with Split by Date one member, local day and channel.
 */
export const bucketRowSchema = z.object({
  date_of_data: z.string(),
  member_id: z.string(),
  member_name: z.string(),
  email: z.string(),
  channel_id: z.string().nullable(),
  channel_name: z.string(),
  messages: z.number(),
  reactions: z.number(),
  replies: z.number(),
  activity: z.number(),
});
export type BucketRow = z.infer<typeof bucketRowSchema>;

export const advanceAnalyticsResponse = z.object({
  data: z.array(bucketRowSchema),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type AdvanceAnalyticsResponse = z.infer<typeof advanceAnalyticsResponse>;

/* Buckets (Bucket). */

/**
 * base_events: members who joined (or left) the workspace in a window, Fixed (the last `days` days; 'static'
 * is the same) or custom (start_time to end_time, epoch milliseconds).
 */
export const baseEventsSchema = z
  .object({
    event: z.enum(['workspace_join', 'workspace_left'], {
      error: "data.base_events.event must be 'workspace_join' or 'workspace_left'",
    }),
    time_filter_type: z.enum(['Fixed', 'static', 'custom'], {
      error: "data.base_events.time_filter_type must be 'Fixed' or 'custom'",
    }),
    days: rangeDays('data.base_events.days').optional(),
    start_time: epochMs('data.base_events.start_time').optional(),
    end_time: epochMs('data.base_events.end_time').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.time_filter_type === 'custom') {
      if (v.start_time === undefined || v.end_time === undefined)
        ctx.addIssue({
          code: 'custom',
          message: 'A custom base event window needs data.base_events.start_time and end_time',
        });
      else if (v.start_time > v.end_time)
        ctx.addIssue({
          code: 'custom',
          message: 'data.base_events.start_time must not be after data.base_events.end_time',
        });
    } else if (v.days === undefined)
      ctx.addIssue({ code: 'custom', message: 'A Fixed base event window needs data.base_events.days' });
  });
export type BaseEvents = z.infer<typeof baseEventsSchema>;

const channelList = z
  .array(slackId('data.channel_filter.ids[]'), { error: BUCKET_CHANNELS_EMPTY })
  .min(1, BUCKET_CHANNELS_EMPTY)
  .max(1000, 'data.channel_filter.ids: at most 1000 channels');

/** The bucket's data: {base_events, sub_time_filter, activity_filter, channel_filter, message/reaction/replies_filter}. */
export const bucketDataSchema = z.object({
  basis: z.enum(BUCKET_BASES, { error: "data.basis must be 'members' or 'channels'" }).default('members'),
  base_events: baseEventsSchema.nullish(),
  /** The activity window (the Activity section's own date filter). */
  sub_time_filter: timeFilterSchema.default({ type: 'static', days: 7 }),
  activity_filter: z
    .enum(['AND', 'OR'], { error: "data.activity_filter must be 'AND' or 'OR'" })
    .default('AND'),
  channel_filter: z.object(
    {
      ids: channelList,
      type: z.enum(['AND', 'OR'], { error: "data.channel_filter.type must be 'AND' or 'OR'" }).default('OR'),
    },
    { error: BUCKET_CHANNELS_EMPTY },
  ),
  message_filter: comparison('data.message_filter'),
  reaction_filter: comparison('data.reaction_filter'),
  replies_filter: comparison('data.replies_filter'),
  /** Members holding any of these engagement levels when the bucket runs (packages/shared/src/levels.ts). */
  levels: levelsFilter,
});
export type BucketData = z.input<typeof bucketDataSchema>;
export type BucketDefinition = z.output<typeof bucketDataSchema>;

const bucketName = z
  .string({ error: BUCKET_NAME_EMPTY })
  .trim()
  .min(1, BUCKET_NAME_EMPTY)
  .pipe(safeText('bucket_name', BUCKET_NAME_MAX));

/** POST /bucket/createbucket {data, bucket_name, team_id} */
export const createBucketBody = z.object({
  team_id: slackId('team_id'),
  bucket_name: bucketName,
  data: bucketDataSchema,
});
export type CreateBucketRequest = z.input<typeof createBucketBody>;

export const bucketSchema = z.object({
  id: z.number(),
  name: z.string(),
  data: bucketDataSchema,
  /** Epoch milliseconds of the last run; null is 'Not-Executed'. */
  last_execute: z.number().nullable(),
  /** Members the last run found (null before the first run). */
  member_count: z.number().nullable(),
  created_at: z.number(),
});
export type Bucket = z.infer<typeof bucketSchema>;

export const createBucketResponse = z.object({ data: bucketSchema, message: z.string() });
export const bucketsResponse = z.object({ data: z.array(bucketSchema) });

/** POST /bucket/execute {id, team_id} -> data.bucketdata.last_execute, message */
export const executeBucketBody = z.object({ team_id: slackId('team_id'), id: rowId('id') });
export const executeBucketResponse = z.object({
  data: z.object({ bucketdata: bucketSchema }),
  message: z.string(),
});

/** GET /bucket/getbucketres/{id}/{teamId}: the last run's rows, for the CSV. */
export const bucketResultResponse = z.object({ data: z.array(bucketRowSchema) });

/** POST /bucket/addtags {id, tags [{id, name}], team_id} */
export const bucketAddTagsBody = z.object({
  team_id: slackId('team_id'),
  id: rowId('id'),
  tags: z
    .array(z.object({ id: rowId('tags[].id'), name: safeText('tags[].name', 200).optional() }), {
      error: 'Select a tag',
    })
    .min(1, 'Select a tag')
    .max(100, 'tags: at most 100 tags'),
});

/** The advanced analytics filter of a bucket definition (what running it evaluates). */
export function bucketFilter(teamId: string, d: BucketDefinition): z.input<typeof advanceAnalyticsFilter> {
  const b = d.base_events;
  const type = b?.event === 'workspace_left' ? ('team_left' as const) : ('team_join' as const);
  const base = !b
    ? null
    : b.time_filter_type === 'custom'
      ? { type, startts: b.start_time, endts: b.end_time }
      : { type, time_filter: { type: 'static' as const, days: b.days } };
  const activity = {
    type: d.activity_filter,
    message_filter: d.message_filter ?? null,
    reaction_filter: d.reaction_filter ?? null,
    reply_filter: d.replies_filter ?? null,
  };
  const anyActivity = !!(activity.message_filter || activity.reaction_filter || activity.reply_filter);
  return {
    team_id: teamId,
    time_filter: d.sub_time_filter,
    channels: d.channel_filter.ids,
    channel_type: d.channel_filter.type,
    activity_filter: anyActivity ? activityFilterSchema.parse(activity) : null,
    base_filter: base ? baseFilterSchema.parse(base) : null,
    levels: d.levels && d.levels.length > 0 ? d.levels : null,
    split_by_date_and_channel: false,
  };
}
