import crypto from 'node:crypto';
import {
  CONVERSATION_TEXTS,
  mentionIdOf,
  slackPermalink,
  type Mention,
  type MentionsResponse,
  type SearchHit,
  type ThreadSummary,
  type ThreadsResponse,
  type UniqueReactions,
  type UniqueReplies,
} from '@flywheel/shared/conversations';
import { mentionedIds } from '@flywheel/shared/mentions';
import { notFound } from '../../lib/errors.ts';
import { truncateText } from '@flywheel/shared/text';
import { extractiveSummary, ModelTimeoutError, threadPrompt, type ThreadText } from './summary.ts';
import {
  decodeCursor,
  decodeThreadCursor,
  encodeCursor,
  encodeThreadCursor,
  searchQueryOf,
  type ConversationsCore,
  type ThreadsWindow,
} from './core.ts';

/** Reading the conversations: threads, a thread's replies and reactions, search, mentions, a thread's summary. */
export const conversationsHistory = ({
  deps,
  repo,
  searchRepo,
  summaries,
  summaryLimits,
  originOf,
  readable,
  senderOf,
  locate,
  windowOf,
  toThread,
}: ConversationsCore) => ({
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
    if (!query || !(await searchRepo.hasWords(query))) return [];
    const [origin, rows] = await Promise.all([
      originOf(teamId),
      searchRepo.search(teamId, query, channelId, limit),
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
    const targets = (await searchRepo.mentionTargets(teamId)).map((r) => r.id);
    const after = decodeCursor(f.cursor);
    if (targets.length === 0) return { data: [], next_cursor: null, users: [], channels: [] };
    const q = f.q?.trim() ? searchQueryOf(f.q) : null;
    const [origin, rows, who] = await Promise.all([
      originOf(teamId),
      f.q?.trim() && !q
        ? Promise.resolve([])
        : searchRepo.mentions(teamId, {
            ids: targets,
            q,
            userId: f.userId ?? null,
            channelId: f.channelId ?? null,
            after,
            limit: f.limit + 1,
          }),
      searchRepo.mentionAuthorsAndChannels(teamId, targets),
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
});
