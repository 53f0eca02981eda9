import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  CONVERSATION_TEXTS,
  MAX_THREAD_RANGE_DAYS,
  mentionIdOf,
  parseMentionId,
  slackPermalink,
  type Mention,
  type SortDirection,
  type ThreadSort,
  type MentionsResponse,
  type SearchHit,
  type Thread,
  type ThreadSummary,
  type ThreadsResponse,
  type UniqueReactions,
  type UniqueReplies,
} from '@flywheel/shared/conversations';
import type { Sender } from '@flywheel/shared/delivery';
import {
  DEFAULT_RESPONSE_DAYS,
  type QuestionsQuery,
  type QuestionsResponse,
  type ResponseStats,
  type ResponseTimesResponse,
} from '@flywheel/shared/questions';
import { mentionedIds, namesFrom, readableMentions } from '@flywheel/shared/mentions';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { addDays, localDay, tsToDate } from '../../lib/days.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { truncateText } from '@flywheel/shared/text';
import type { Logger } from '../../lib/logger.ts';
import type { DeliveryService } from '../delivery/service.ts';
import {
  conversationsRepo,
  type MessageRow,
  type PagePosition,
  type ThreadPosition,
  type ThreadRow,
} from './repo.ts';
import { questionsRepo } from './questions-repo.ts';
import { summaryCache } from './summary-cache.ts';
import {
  extractiveSummary,
  ModelTimeoutError,
  threadPrompt,
  type LlmClient,
  type ThreadText,
} from './summary.ts';

const DAY_MS = 86_400_000;
const bad = (message: string) => new AppError('VALIDATION_ERROR', 400, message);

/**
 * Where a workspace's messages open in Slack: `https://<domain>.slack.com` for Slack itself; another API
 * (the bundled emulator) serves its archive links on its own origin.
 */
export function slackWebOrigin(apiUrl: string, domain: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com'))
    return `https://${domain}.slack.com`;
  return url.origin;
}

/** A page position as an opaque cursor (base64url of the last row's time, ts and channel). */
export const encodeCursor = (p: PagePosition) =>
  Buffer.from(JSON.stringify([p.at.getTime(), p.ts, p.channelId])).toString('base64url');
export function decodeCursor(cursor: string | undefined): PagePosition | null {
  if (!cursor) return null;
  try {
    const [at, ts, channelId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof at === 'number' && typeof ts === 'string' && typeof channelId === 'string')
      return { at: new Date(at), ts, channelId };
  } catch {
    // fall through
  }
  throw bad('cursor must be the next_cursor of a previous answer');
}

/**
 * A search box's words as a full-text query: every word must match, the last one (3+ letters) also as a
 * prefix ("deploy pipel" finds "deploying the pipeline"); English stemming and stop words, like the index.
 * Null when no word is left.
 */
export function searchQueryOf(q: string): SQL | null {
  const words = (q.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 8);
  if (words.length === 0) return null;
  // Search as you type: only the last word may be unfinished (a prefix); the words before it are whole (a
  // prefix of each common word would make the index read every word it begins).
  const terms = words.map((w, i) => (i === words.length - 1 && w.length >= 3 ? `${w}:*` : w)).join(' & ');
  return sql`to_tsquery('english', ${terms})`;
}

/**
 * A threads page's cursor: the last row's time, ts and channel (as for every newest-first list), followed,
 * when sorted by something else or oldest first, by the sort, its direction and the row's sort value. A cursor
 * of another order is refused: its position means nothing in this one.
 */
export function encodeThreadCursor(
  p: PagePosition,
  order: { sort: ThreadSort; direction: SortDirection },
  key: string | null,
): string {
  if (order.sort === 'time' && order.direction === 'desc') return encodeCursor(p);
  const numeric = order.sort === 'replies' || order.sort === 'reactions';
  const tail = [order.sort, order.direction, order.sort === 'time' ? null : numeric ? Number(key) : key];
  return Buffer.from(JSON.stringify([p.at.getTime(), p.ts, p.channelId, ...tail])).toString('base64url');
}
export function decodeThreadCursor(
  cursor: string | undefined,
  order: { sort: ThreadSort; direction: SortDirection },
): ThreadPosition | null {
  const p = decodeCursor(cursor);
  if (!p) return null;
  const [, , , sort = 'time', direction = 'desc', key = null] = JSON.parse(
    Buffer.from(cursor!, 'base64url').toString(),
  ) as unknown[];
  const numeric = order.sort === 'replies' || order.sort === 'reactions';
  const keyFits =
    order.sort === 'time'
      ? key === null
      : numeric
        ? typeof key === 'number' && Number.isInteger(key)
        : typeof key === 'string';
  if (sort !== order.sort || direction !== order.direction || !keyFits)
    throw bad('cursor must be the next_cursor of a previous answer with the same sort and direction');
  return { ...p, key: key as string | number | null };
}

export type ThreadsWindow = {
  start: string;
  end: string;
  channel: string | null;
  cursor?: string;
  limit: number;
  /** Default: newest first. */
  sort?: ThreadSort;
  direction?: SortDirection;
};

/** The conversation workbench: threads, their replies and reactions, search, mentions, summaries. */
export const conversationsService = (deps: {
  db: Db;
  delivery: DeliveryService;
  /** The Slack Web API base the product talks to (changes when the demo starts its emulator). */
  slackApiUrl: () => string;
  llm: LlmClient | null;
  /** Model summaries one admin may start a minute, and the longest summary kept (default 10 and 4,000). */
  summaries?: { perAdminPerMinute: number; maxChars: number };
  logger: Logger;
  now?: () => Date;
  /** How many newest messages a search checks one by one before the GIN index (tests make it small). */
  recentScan?: number;
  /** The GIN steps' time slices, in days back (tests make them small). */
  slicesDays?: number[];
}) => {
  const repo = conversationsRepo(deps.db, { recentScan: deps.recentScan, slicesDays: deps.slicesDays });
  const questions = questionsRepo(deps.db);
  const now = () => deps.now?.() ?? new Date();
  const summaryLimits = deps.summaries ?? { perAdminPerMinute: 10, maxChars: 4000 };
  const summaries = summaryCache({
    perAdminPerMinute: summaryLimits.perAdminPerMinute,
    now: () => now().getTime(),
  });

  async function originOf(teamId: string): Promise<string> {
    const ws = await repo.workspace(teamId);
    if (!ws) throw notFound('No such workspace');
    return slackWebOrigin(deps.slackApiUrl(), ws.domain);
  }

  /** Texts with mentions readable (@real name, #channel), names looked up once for all of them. */
  async function readable(teamId: string, texts: string[]): Promise<(s: string) => string> {
    const members = new Set<string>();
    const channels = new Set<string>();
    for (const t of texts) {
      const found = mentionedIds(t);
      found.members.forEach((id) => members.add(id));
      found.channels.forEach((id) => channels.add(id));
    }
    const names = namesFrom(
      await repo.memberNames(teamId, [...members]),
      await repo.channelNames(teamId, [...channels]),
    );
    return (s) => readableMentions(s, names);
  }

  const senderOf = (r: MessageRow) =>
    r.sender ?? (r.subtype === 'bot_message' ? 'Bot' : (r.user_id ?? 'Unknown'));

  /** The thread a ts names: its channel (given, or the only one holding it) and its parent's ts. */
  async function locate(
    teamId: string,
    ts: string,
    channelId: string | undefined,
  ): Promise<{ channelId: string; threadTs: string }> {
    const found = await repo.channelsWithTs(teamId, ts, tsToDate(ts), channelId ?? null);
    if (found.length === 0) throw notFound(CONVERSATION_TEXTS.noSuchThread);
    if (found.length > 1) throw bad(CONVERSATION_TEXTS.ambiguousTs);
    const m = found[0]!;
    return { channelId: m.channel_id, threadTs: m.is_reply && m.thread_ts ? m.thread_ts : ts };
  }

  function windowOf(start: string, end: string): { from: Date; to: Date } {
    const from = new Date(start);
    const to = new Date(end);
    if (from > to) throw bad(CONVERSATION_TEXTS.startAfterEnd);
    if (from.getTime() > now().getTime() + 60_000) throw bad(CONVERSATION_TEXTS.startInFuture);
    if (to.getTime() - from.getTime() > MAX_THREAD_RANGE_DAYS * DAY_MS)
      throw bad(CONVERSATION_TEXTS.rangeTooLong);
    return { from, to };
  }

  const toThread =
    (origin: string, read: (s: string) => string) =>
    (r: ThreadRow): Thread => ({
      ts: r.ts,
      channel_id: r.channel_id,
      channel_name: r.channel_name ?? r.channel_id,
      sender: senderOf(r),
      sender_id: r.user_id,
      content: read(r.text),
      posted_at: Number(r.at),
      edited: r.edited,
      replies: r.replies,
      reactions: r.reactions,
      is_pinned: r.is_pinned,
      permalink: slackPermalink(origin, r.channel_id, r.ts),
    });

  return {
    /**
     * Threads (top-level messages) of the workspace or a channel in [start, end], paged: newest first, or in
     * the order asked over the whole window.
     */
    async threads(teamId: string, w: ThreadsWindow): Promise<ThreadsResponse> {
      const order = { sort: w.sort ?? 'time', direction: w.direction ?? 'desc' } as const;
      const after = decodeThreadCursor(w.cursor, order);
      const { from, to } = windowOf(w.start, w.end);
      const origin = await originOf(teamId);
      const rows = await repo.threads(teamId, {
        from,
        to: new Date(to.getTime() + 1),
        channelId: w.channel,
        ...order,
        after,
        limit: w.limit + 1,
      });
      const page = rows.slice(0, w.limit);
      const read = await readable(
        teamId,
        page.map((r) => r.text),
      );
      const last = page[page.length - 1];
      return {
        data: page.map(toThread(origin, read)),
        next_cursor:
          rows.length > w.limit && last
            ? encodeThreadCursor(
                { at: new Date(Number(last.at)), ts: last.ts, channelId: last.channel_id },
                order,
                last.sort_key,
              )
            : null,
      };
    },

    /** The thread's live replies: one row each, how many, and from how many people. */
    async replies(teamId: string, ts: string, channelId?: string): Promise<UniqueReplies> {
      const t = await locate(teamId, ts, channelId);
      const rows = await repo.replies(teamId, t.channelId, t.threadTs);
      const read = await readable(
        teamId,
        rows.map((r) => r.text),
      );
      const replies = rows.map((r) => ({
        user_id: r.user_id ?? '',
        name: senderOf(r),
        reply: read(r.text),
        ts: r.ts,
        posted_at: Number(r.at),
      }));
      return {
        total_replies: replies.length,
        unique_replies: new Set(replies.map((r) => r.user_id || r.name)).size,
        replies,
      };
    },

    /** The live reactions on the thread's parent message: one row each, how many, from how many people. */
    async reactions(teamId: string, ts: string, channelId?: string): Promise<UniqueReactions> {
      const t = await locate(teamId, ts, channelId);
      const rows = await repo.reactions(teamId, t.channelId, t.threadTs);
      const reactions = rows.map((r) => ({
        user_id: r.user_id,
        name: r.name ?? r.user_id,
        reaction: r.reaction,
      }));
      return {
        total_reactions: reactions.length,
        unique_reactions: new Set(reactions.map((r) => r.user_id)).size,
        reactions,
      };
    },

    /** Full-text search over the workspace's (or a channel's) live messages, newest first. */
    async search(teamId: string, q: string, channelId: string | null, limit: number): Promise<SearchHit[]> {
      const query = searchQueryOf(q);
      if (!query || !(await repo.hasWords(query))) return [];
      const [origin, rows] = await Promise.all([
        originOf(teamId),
        repo.search(teamId, query, channelId, limit),
      ]);
      const read = await readable(
        teamId,
        rows.map((r) => r.text),
      );
      return rows.map((r) => ({
        objectID: mentionIdOf(r.channel_id, r.ts),
        ts: r.ts,
        thread_ts: r.is_reply && r.thread_ts ? r.thread_ts : r.ts,
        user_name: senderOf(r),
        channel_name: r.channel_name ?? r.channel_id,
        channel_id: r.channel_id,
        content: read(r.text),
        is_thread: !r.is_reply,
        posted_at: Number(r.at),
        permalink: slackPermalink(origin, r.channel_id, r.ts, r.is_reply ? r.thread_ts : null),
      }));
    },

    /** Messages and threads mentioning the workspace's admins or its bot, newest first, paged and filtered. */
    async mentions(
      teamId: string,
      f: { q?: string; userId?: string; channelId?: string; cursor?: string; limit: number },
    ): Promise<MentionsResponse> {
      const targets = (await repo.mentionTargets(teamId)).map((r) => r.id);
      const after = decodeCursor(f.cursor);
      if (targets.length === 0) return { data: [], next_cursor: null, users: [], channels: [] };
      const q = f.q?.trim() ? searchQueryOf(f.q) : null;
      const [origin, rows, who] = await Promise.all([
        originOf(teamId),
        f.q?.trim() && !q
          ? Promise.resolve([])
          : repo.mentions(teamId, {
              ids: targets,
              q,
              userId: f.userId ?? null,
              channelId: f.channelId ?? null,
              after,
              limit: f.limit + 1,
            }),
        repo.mentionAuthorsAndChannels(teamId, targets),
      ]);
      const page = rows.slice(0, f.limit);
      const read = await readable(
        teamId,
        page.map((r) => r.text),
      );
      const targetNames = await repo.memberNames(teamId, targets);
      const last = page[page.length - 1];
      const users = new Map<string, string>();
      const channels = new Map<string, string>();
      for (const r of who) {
        if (r.user_id) users.set(r.user_id, r.sender ?? r.user_id);
        channels.set(r.channel_id, r.channel_name ?? r.channel_id);
      }
      const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
      return {
        data: page.map((r): Mention => ({
          mention_id: mentionIdOf(r.channel_id, r.ts),
          ts: r.ts,
          thread_ts: r.is_reply && r.thread_ts ? r.thread_ts : r.ts,
          channel_id: r.channel_id,
          channel_name: r.channel_name ?? r.channel_id,
          user_id: r.user_id,
          user_name: senderOf(r),
          content: read(r.text),
          is_thread: !r.is_reply,
          posted_at: Number(r.at),
          permalink: slackPermalink(origin, r.channel_id, r.ts, r.is_reply ? r.thread_ts : null),
          seen: r.seen,
          mentioned: mentionedIds(r.text)
            .members.filter((id) => targets.includes(id))
            .map((id) => targetNames.get(id) || id),
        })),
        next_cursor:
          rows.length > f.limit && last
            ? encodeCursor({ at: new Date(Number(last.at)), ts: last.ts, channelId: last.channel_id })
            : null,
        users: [...users].map(([value, label]) => ({ value, label })).sort(byLabel),
        channels: [...channels].map(([value, label]) => ({ value, label })).sort(byLabel),
      };
    },

    /**
     * The thread's summary: the configured model's, else (or when it fails) an extractive one. A model's summary
     * is kept until the thread changes, and requests for the same thread while the model works wait for that
     * one call; a call the cache and such a wait cannot answer counts against the admin's per-minute limit.
     */
    async summarize(teamId: string, ts: string, channelId?: string, userId?: string): Promise<ThreadSummary> {
      const t = await locate(teamId, ts, channelId);
      const parent = await repo.message(teamId, t.channelId, t.threadTs);
      if (!parent) throw notFound(CONVERSATION_TEXTS.noSuchThread);
      const replies = await repo.replies(teamId, t.channelId, t.threadTs);
      const all = [parent, ...replies];
      const read = await readable(
        teamId,
        all.map((r) => r.text),
      );
      const thread: ThreadText = {
        channelName: parent.channel_name ?? parent.channel_id,
        lines: all.map((r) => ({ name: senderOf(r), text: read(r.text) })),
      };
      const llm = deps.llm;
      if (!llm) return { summary: extractiveSummary(thread), kind: 'extractive', model: null };

      // The thread as the model would read it names its version: a reply, an edit, a deletion or a renamed
      // member makes another summary.
      const key = `${teamId}\n${t.channelId}\n${t.threadTs}`;
      const version = crypto
        .createHash('sha256')
        .update(`${llm.model}\n${threadPrompt(thread)}`)
        .digest('base64url');
      const cached = summaries.cached(key, version);
      if (cached) return cached;
      const running = summaries.running(key, version);
      if (running) return running;
      summaries.admit(userId ?? 'system');
      return summaries.run(key, version, async () => {
        try {
          const text = await llm.summarize(thread);
          return {
            summary: { summary: truncateText(text, summaryLimits.maxChars), kind: 'ai', model: llm.model },
            keep: true,
          };
        } catch (err) {
          const status = (err as { status?: number }).status;
          const timedOut = err instanceof ModelTimeoutError;
          deps.logger.warn(
            { status, error: err instanceof Error ? err.message : String(err), model: llm.model, timedOut },
            'thread summary: the model did not answer; falling back to an extractive summary',
          );
          const why = timedOut
            ? `the AI model did not answer within ${Math.round(llm.timeoutMs / 1000)} s`
            : 'the AI model did not answer';
          const note = `Extractive summary (${why}, so these are the replies most representative of the thread, picked from its own words).`;
          // Not kept: the next request asks the model again.
          return {
            summary: { summary: extractiveSummary(thread, note), kind: 'extractive', model: null },
            keep: false,
          };
        }
      });
    },

    /** A reply to a mention, sent through the delivery engine; the mention is then 'Seen'. */
    async replyToMention(r: {
      teamId: string;
      userId: string | null;
      sender: Sender;
      adminUser: string | null;
      text: string;
      images: string[];
      channelId: string;
      ts: string;
      mentionId?: string | null;
      /** A person's Idempotency-Key (its receipt key). */
      idempotencyKey?: string;
    }) {
      const result = await deps.delivery.reply({
        teamId: r.teamId,
        userId: r.userId,
        sender: r.sender,
        adminUser: r.adminUser,
        text: r.text,
        images: r.images,
        channel: r.channelId,
        ts: r.ts,
        ...(r.idempotencyKey ? { idempotencyKey: r.idempotencyKey } : {}),
      });
      const seen = (r.mentionId && parseMentionId(r.mentionId)) || { channelId: r.channelId, ts: r.ts };
      await repo.markSeen(r.teamId, seen.channelId, seen.ts, 'reply', r.userId);
      return result;
    },

    /** A reaction to a mention (delivery's paced call); the mention is then 'Seen'. */
    async reactToMention(r: {
      teamId: string;
      userId: string | null;
      sender: Sender;
      adminUser: string | null;
      channelId: string;
      ts: string;
      name: string;
      mentionId?: string | null;
    }): Promise<string> {
      const message = await deps.delivery.react(r.teamId, {
        channel: r.channelId,
        ts: r.ts,
        name: r.name,
        sender: r.sender,
        adminUser: r.adminUser,
      });
      const seen = (r.mentionId && parseMentionId(r.mentionId)) || { channelId: r.channelId, ts: r.ts };
      await repo.markSeen(r.teamId, seen.channelId, seen.ts, 'reaction', r.userId);
      return message;
    },

    /**
     * Unanswered questions (docs/product/questions.md): asked in the last `max_age_days`, unanswered for at
     * least `answer_after_minutes`, not marked handled; newest first, a page at a time, with their total.
     */
    async unansweredQuestions(teamId: string, f: QuestionsQuery): Promise<QuestionsResponse> {
      const after = decodeCursor(f.cursor);
      const at = now().getTime();
      const query = f.q?.trim() ? searchQueryOf(f.q) : null;
      const filter = {
        from: new Date(at - f.max_age_days * DAY_MS),
        dueBy: new Date(at - f.answer_after_minutes * 60_000),
        channelId: f.channel_id ?? null,
        q: query,
      };
      const origin = await originOf(teamId);
      if (query && !(await repo.hasWords(query))) return { data: [], total: 0, next_cursor: null };
      const rows = await questions.unanswered(teamId, filter, after, f.limit + 1);
      const total = await questions.countUnanswered(teamId, filter);
      const page = rows.slice(0, f.limit);
      const read = await readable(
        teamId,
        page.map((r) => r.text),
      );
      const last = page[page.length - 1];
      return {
        data: page.map(toThread(origin, read)),
        total,
        next_cursor:
          rows.length > f.limit && last
            ? encodeCursor({ at: new Date(Number(last.at)), ts: last.ts, channelId: last.channel_id })
            : null,
      };
    },

    /** 'Mark handled': the question leaves the unanswered list for every admin (the first mark kept). */
    async markQuestionHandled(teamId: string, channelId: string, ts: string, userId: string | null) {
      if (!(await questions.isTopLevel(teamId, channelId, ts)))
        throw notFound(CONVERSATION_TEXTS.noSuchThread);
      await questions.markHandled(teamId, channelId, ts, userId);
    },

    /**
     * Response times of the questions asked in a range of local days (default: the last 90, today included):
     * overall, per week and per channel.
     */
    async responseTimes(
      teamId: string,
      range: { days?: number; start_date?: string; end_date?: string },
    ): Promise<ResponseTimesResponse> {
      const tz = (await questions.timezone(teamId)) ?? 'UTC';
      const today = localDay(now(), tz);
      const fromDay = range.start_date ?? addDays(today, -((range.days ?? DEFAULT_RESPONSE_DAYS) - 1));
      const toDay = range.end_date ?? today;
      const rows = await questions.responseTimes(teamId, tz, fromDay, toDay);
      const stats = (r: (typeof rows)[number] | undefined): ResponseStats => ({
        questions: r?.questions ?? 0,
        answered: r?.answered ?? 0,
        median_seconds: r?.median ?? null,
        p90_seconds: r?.p90 ?? null,
        within_1h: r && r.questions > 0 ? r.within_1h / r.questions : null,
        within_24h: r && r.questions > 0 ? r.within_24h / r.questions : null,
      });
      return {
        start_date: fromDay,
        end_date: toDay,
        timezone: tz,
        total: stats(rows.find((r) => r.by === 'total')),
        weeks: rows
          .filter((r) => r.by === 'week')
          .map((r) => ({ week: r.week!, ...stats(r) }))
          .sort((a, b) => a.week.localeCompare(b.week)),
        channels: rows
          .filter((r) => r.by === 'channel')
          .map((r) => ({
            channel_id: r.channel_id!,
            channel_name: r.channel_name ?? r.channel_id!,
            ...stats(r),
          }))
          .sort((a, b) => b.questions - a.questions || a.channel_name.localeCompare(b.channel_name)),
      };
    },

    /** pin_added / pin_removed (event listener, in the drain's transaction). */
    applyPin: (
      tx: Tx,
      p: { teamId: string; channelId: string; ts: string; pinned: boolean; by: string | null; at: Date },
    ) => repo.setPinned(tx, p),
  };
};
export type ConversationsService = ReturnType<typeof conversationsService>;
