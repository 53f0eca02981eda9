import { sql, type SQL } from 'drizzle-orm';
import {
  CONVERSATION_TEXTS,
  MAX_THREAD_RANGE_DAYS,
  slackPermalink,
  type SortDirection,
  type ThreadSort,
  type Thread,
} from '@flywheel/shared/conversations';
import { mentionedIds, namesFrom, readableMentions } from '@flywheel/shared/mentions';
import type { Db } from '../../db/client.ts';
import { tsToDate } from '../../lib/days.ts';
import { AppError, notFound } from '../../lib/errors.ts';
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
import { conversationsSearchRepo } from './search-repo.ts';
import { summaryCache } from './summary-cache.ts';
import type { LlmClient } from './summary.ts';

/*
 * What the conversations service's parts share (service.ts puts them together): its dependencies, the
 * repositories, the clock, and how a thread is located and shown; the cursors and the search query.
 */

export const DAY_MS = 86_400_000;
export const bad = (message: string) => new AppError('VALIDATION_ERROR', 400, message);

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

export type ConversationsDeps = {
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
  /** Connections one request may use side by side (DB_QUERY_SLICES; 1 on PGlite). */
  querySlices?: number;
};

export const conversationsCore = (deps: ConversationsDeps) => {
  const repo = conversationsRepo(deps.db);
  const searchRepo = conversationsSearchRepo(deps.db, {
    recentScan: deps.recentScan,
    slicesDays: deps.slicesDays,
  });
  const questions = questionsRepo(deps.db, { split: (deps.querySlices ?? 1) > 1 });
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
    deps,
    repo,
    searchRepo,
    questions,
    now,
    summaries,
    summaryLimits,
    originOf,
    readable,
    senderOf,
    locate,
    windowOf,
    toThread,
  };
};
export type ConversationsCore = ReturnType<typeof conversationsCore>;
