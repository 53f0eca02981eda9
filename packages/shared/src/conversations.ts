import { z } from 'zod';
import { safeText, slackId } from './input.ts';

/*
 * The conversation workbench: threads of a channel or the workspace in a time
 * window, a thread's replies and reactions, full-text search over messages, mentions of the workspace's
 * admins and bot, and thread summaries.
 */

export const CONVERSATION_TEXTS = {
  noResults: 'No results found',
  summaryCopied: 'Summary copied',
  copySummary: 'Copy Summary',
  searchThread: 'Search thread',
  clearFilters: 'Clear Filters',
  seen: 'Seen',
  /** /auth/algoliatoken: the old hosted search index is gone; search runs in Flywheel's own database. */
  searchBuiltIn:
    'Search is built in: Flywheel searches messages in its own database (PostgreSQL full-text search). ' +
    'No Algolia token is needed; use GET /api/v0/actions/searchthreads/{team_id}?q=words instead.',
  startAfterEnd: 'The start must not be after the end',
  startInFuture: 'Dates cannot be in the future',
  rangeTooLong: 'A time range can cover at most 366 days',
  ambiguousTs: 'More than one channel has a message with this ts: name the channel with channel_id',
  noSuchThread: 'No such message in this workspace',
} as const;

/** Thread time filter presets (days), default 7. */
export const THREAD_DAY_PRESETS = [1, 7, 14, 30] as const;
export const DEFAULT_THREAD_DAYS = 7;
/** The spinner every search shows before its results (1.5 s). */
export const SEARCH_SPINNER_MS = 1500;
/** 'Summary copied' shows for 3 s. */
export const SUMMARY_COPIED_MS = 3000;
export const MAX_THREAD_RANGE_DAYS = 366;
export const THREADS_PAGE = 50;
export const MAX_THREADS_PAGE = 200;

/** The `:channel` segment: `workspace` or a channel id. */
export const WORKSPACE_SCOPE = 'workspace';

export const slackTsSchema = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .regex(/^\d{6,12}\.\d{1,8}$/, `${field} must be a Slack message timestamp like 1700000000.000100`);
export const channelIdSchema = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .regex(/^[CGD][A-Z0-9]{2,30}$/, `${field} must be a Slack channel id like C0123ABCD`);

/** An ISO date-time (what the web's time filter sends). */
export const isoDateTime = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .refine(
      (v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)),
      `${field} must be a date-time like 2024-05-31T12:00:00Z`,
    );

/** A page position (opaque). */
export const cursorSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]*$/, 'cursor must be the next_cursor of a previous answer')
  .optional();

export const pageLimit = z.coerce
  .number({ error: 'limit must be a number' })
  .int('limit must be a whole number')
  .min(1, 'limit must be at least 1')
  .max(MAX_THREADS_PAGE, `limit must be at most ${MAX_THREADS_PAGE}`)
  .default(THREADS_PAGE);

/**
 * What the Threads table sorts by, on the server over the whole time window (the table's column ids):
 * time posted, sender's name, channel's name, live replies, live reactions. Ties fall back to time, ts and
 * channel, so a page's cursor resumes exactly where the last one ended.
 */
export const THREAD_SORTS = ['time', 'sender', 'channel', 'replies', 'reactions'] as const;
export type ThreadSort = (typeof THREAD_SORTS)[number];
export type SortDirection = 'asc' | 'desc';

/** GET /actions/getthreads/...?cursor=&limit=&sort=&direction= (default: newest first). */
export const threadsQuery = z.object({
  // Longer than other cursors: sorted by sender or channel, it carries the last row's name.
  cursor: z
    .string()
    .max(1000, 'cursor must be the next_cursor of a previous answer')
    .regex(/^[A-Za-z0-9_-]*$/, 'cursor must be the next_cursor of a previous answer')
    .optional(),
  limit: pageLimit,
  sort: z.enum(THREAD_SORTS, { error: `sort must be one of ${THREAD_SORTS.join(', ')}` }).default('time'),
  direction: z.enum(['asc', 'desc'], { error: "direction must be 'asc' or 'desc'" }).default('desc'),
});

/** "Thread", with what the cards also show. */
export const threadSchema = z.object({
  ts: z.string(),
  channel_id: z.string(),
  channel_name: z.string(),
  sender: z.string(),
  sender_id: z.string().nullable(),
  /** The text with mentions readable (@real name, #channel). */
  content: z.string(),
  /** Epoch milliseconds. */
  posted_at: z.number(),
  edited: z.boolean(),
  replies: z.number().int(),
  reactions: z.number().int(),
  is_pinned: z.boolean(),
  /** Open in Slack: the message's permalink (archive link from the workspace domain, channel id and ts). */
  permalink: z.string(),
});
export type Thread = z.infer<typeof threadSchema>;

export const threadsResponse = z.object({
  data: z.array(threadSchema),
  /** Pass as `cursor` (with the same sort and direction) for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type ThreadsResponse = z.infer<typeof threadsResponse>;

/** "Reply": one row per live reply. */
export const replyRowSchema = z.object({
  user_id: z.string(),
  name: z.string(),
  reply: z.string(),
  ts: z.string(),
  posted_at: z.number(),
});
export type ReplyRow = z.infer<typeof replyRowSchema>;
export const uniqueRepliesResponse = z.object({
  data: z.object({
    total_replies: z.number().int(),
    unique_replies: z.number().int(),
    replies: z.array(replyRowSchema),
  }),
});
export type UniqueReplies = z.infer<typeof uniqueRepliesResponse>['data'];

/** "Reaction": one row per live reaction (a person may react with several emoji). */
export const reactionRowSchema = z.object({ user_id: z.string(), name: z.string(), reaction: z.string() });
export type ReactionRow = z.infer<typeof reactionRowSchema>;
export const uniqueReactionsResponse = z.object({
  data: z.object({
    total_reactions: z.number().int(),
    unique_reactions: z.number().int(),
    reactions: z.array(reactionRowSchema),
  }),
});
export type UniqueReactions = z.infer<typeof uniqueReactionsResponse>['data'];

/** GET /actions/getuniquereplies|getuniquereactions/{team_id}/{ts}?channel_id= */
export const threadQuery = z.object({ channel_id: channelIdSchema('channel_id').optional() });

/** POST /actions/summarizeThread (spec: threadParentTs, team_id). */
export const summarizeBody = z.object({
  team_id: slackId('team_id'),
  threadParentTs: slackTsSchema('threadParentTs'),
  channel_id: channelIdSchema('channel_id').optional(),
});
export type SummarizeRequest = z.input<typeof summarizeBody>;
export const SUMMARY_KINDS = ['ai', 'extractive'] as const;
export const summaryResponse = z.object({
  data: z.object({
    summary: z.string(),
    /** `extractive`: picked from the thread's own replies (no AI model configured, or it failed). */
    kind: z.enum(SUMMARY_KINDS),
    model: z.string().nullable(),
  }),
});
export type ThreadSummary = z.infer<typeof summaryResponse>['data'];

/** "Search hit". */
export const searchHitSchema = z.object({
  objectID: z.string(),
  ts: z.string(),
  /** The thread the hit belongs to (its own ts for a top-level message). */
  thread_ts: z.string(),
  user_name: z.string(),
  channel_name: z.string(),
  channel_id: z.string(),
  content: z.string(),
  /** True for a top-level message (a thread), false for a reply inside one. */
  is_thread: z.boolean(),
  posted_at: z.number(),
  permalink: z.string(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;
export const searchQuery = z.object({
  q: safeText('q', 200).refine((v) => v.trim().length > 0, 'Type a word to search for'),
  channel_id: channelIdSchema('channel_id').optional(),
  limit: pageLimit,
});
export const searchResponse = z.object({ data: z.array(searchHitSchema) });

/** Mentions panel: a message or thread mentioning an admin or the bot. */
export const mentionSchema = z.object({
  /** `<channel_id>-<ts>`: what a reply or reaction on it sends back as mention_id. */
  mention_id: z.string(),
  ts: z.string(),
  thread_ts: z.string(),
  channel_id: z.string(),
  channel_name: z.string(),
  user_id: z.string().nullable(),
  user_name: z.string(),
  content: z.string(),
  /** A top-level message (reply and summarize act on its thread); false for a reply in a thread. */
  is_thread: z.boolean(),
  posted_at: z.number(),
  permalink: z.string(),
  /** Someone replied or reacted to it from Flywheel. */
  seen: z.boolean(),
  /** Whom it mentions (readable names). */
  mentioned: z.array(z.string()),
});
export type Mention = z.infer<typeof mentionSchema>;
export const mentionsQuery = z.object({
  q: safeText('q', 200).optional(),
  user_id: slackId('user_id').optional(),
  channel_id: channelIdSchema('channel_id').optional(),
  cursor: cursorSchema,
  limit: pageLimit,
});
export const mentionsResponse = z.object({
  data: z.array(mentionSchema),
  next_cursor: z.string().nullable(),
  /** Who posted mentions and where (the user and channel dropdowns). */
  users: z.array(z.object({ value: z.string(), label: z.string() })),
  channels: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type MentionsResponse = z.infer<typeof mentionsResponse>;

export const algoliaTokenResponse = z.object({
  message: z.string(),
  algoliaToken: z.null(),
  search: z.string(),
});

/** `C123-1700000000.000100` -> channel and ts. */
export function parseMentionId(id: string): { channelId: string; ts: string } | null {
  const m = /^([CGD][A-Z0-9]{2,30})-(\d{6,12}\.\d{1,8})$/.exec(id);
  return m ? { channelId: m[1]!, ts: m[2]! } : null;
}
export const mentionIdOf = (channelId: string, ts: string) => `${channelId}-${ts}`;

/**
 * Slack's permalink of a message: `<origin>/archives/<channel>/p<ts without the dot>`, and for a reply in a
 * thread `?thread_ts=<parent>&cid=<channel>` (what chat.getPermalink answers). The origin is
 * `https://<domain>.slack.com` for Slack itself.
 */
export function slackPermalink(origin: string, channelId: string, ts: string, threadTs?: string | null) {
  const base = `${origin.replace(/\/$/, '')}/archives/${channelId}/p${ts.replace('.', '')}`;
  return threadTs && threadTs !== ts ? `${base}?thread_ts=${threadTs}&cid=${channelId}` : base;
}
