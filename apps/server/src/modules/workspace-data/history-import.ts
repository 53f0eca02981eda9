import type { WebClient } from '@slack/web-api';
import type { Db } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { slackErrorOf, type SlackApi } from '../../slack/client.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { backfillRepo, type Backfill, type BackfillState } from './history-import-repo.ts';
import { localDay, tsToDate } from '../../lib/days.ts';
import { factsRepo } from './facts-repo.ts';
import { LOCKS, xactLock } from '../../db/locks.ts';
import { botDirectory, factsWriter, memberRow, recordMessage, type IngestScope } from './ingest.ts';
import { rollupBuffer } from '../activity/rollups.ts';

export type BackfillService = ReturnType<typeof backfillService>;
export type BackfillProgress = {
  status: 'running' | 'done' | 'failed';
  percent: number;
  messages: number;
  error: string | null;
  /** 'limited': Slack answers history at 1 call a minute, 15 messages a page (an app outside the Marketplace). */
  pacing: 'standard' | 'limited';
  /** A rough estimate of the import's remaining time, while it runs (null when done, failed or not known yet). */
  remaining_seconds: number | null;
};

/** The most a limited app's history page holds (Slack's rate limits page, https://api.slack.com/apis/rate-limits: 15 messages a page for non-Marketplace apps). */
const LIMITED_PAGE = 15;

/** Errors after which a channel is skipped rather than the whole import failed. */
const SKIP_CHANNEL = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'method_not_supported_for_channel_type',
]);
/** `token_expired` here is a rotating token that could not be renewed (the workspace needs authorizing again). */
const FATAL = new Set([
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'not_authed',
  'missing_scope',
]);

/**
 * History import after install: users, channels, channel members, then each channel's history with thread
 * replies, going back `days`. Pages are written in transactions that hold facts, rollups and the saved
 * position together, so a restart resumes exactly where it stopped. Calls are paced to each method's tier
 * and do not wait for the database: pages are written behind them (see pageWriter), so the import runs at
 * the rate limit, not at the rate limit plus the database's time per page.
 */
export function backfillService(deps: {
  db: Db;
  slack: SlackApi;
  workspaces: WorkspacesService;
  logger: Logger;
  days: number;
  /** Once an import ends (done, or refused by Slack); must not throw (the notifications' does not). */
  onFinished?: (
    teamId: string,
    outcome: { status: 'done' | 'failed'; messages: number; error?: string; finishedAt: Date },
  ) => Promise<void>;
}) {
  const repo = backfillRepo(deps.db);

  /** After a channel's members: the next channel's members, or the first channel's history. */
  const afterMembers = (s: BackfillState): BackfillState =>
    s.ci + 1 >= s.channels.length
      ? { ...s, ci: 0, cursor: undefined, phase: 'history' }
      : { ...s, ci: s.ci + 1, cursor: undefined };
  /** After a channel's history and replies: the next channel's history, or done. */
  const nextChannel = (s: BackfillState): BackfillState => {
    const ci = s.ci + 1;
    return {
      ...s,
      ci,
      cursor: undefined,
      historyCursor: undefined,
      threads: [],
      phase: ci >= s.channels.length ? 'done' : 'history',
    };
  };
  /** After the replies of a history page's threads: the channel's next history page, or the next channel. */
  const afterThreads = (s: BackfillState): { state: BackfillState; channelDone: boolean } =>
    s.historyCursor
      ? {
          state: { ...s, phase: 'history', cursor: s.historyCursor, historyCursor: undefined, threads: [] },
          channelDone: false,
        }
      : { state: nextChannel(s), channelDone: true };

  type Step = {
    state: BackfillState;
    messages: number;
    channelDone: boolean;
    /** What the answer changes in the database (run in the page's transaction). */
    write?: (p: IngestScope) => Promise<void>;
  };

  /**
   * Slack limits apps outside the Marketplace (history and replies: 15 a page, 1 call a minute) without
   * saying so in the answer: a page asked for more that stops at 15 or fewer while more follow is the sign.
   * From then on this workspace's history calls are paced at the limited tier (no run of 429s).
   */
  function noteHistoryPage(teamId: string, got: number, hasMore: boolean) {
    if (deps.slack.historyLimited(teamId)) return;
    if (hasMore && got <= LIMITED_PAGE && deps.slack.historyLimit(teamId) > LIMITED_PAGE) {
      deps.slack.markHistoryLimited(teamId);
      deps.logger.warn(
        { teamId },
        "Slack limits this app's history calls (not a Marketplace app): pacing at 1 a minute",
      );
    }
  }

  /** One API call and what follows from it: the new state, counters and the page's writes. */
  async function step(b: Backfill, client: WebClient, tz: string): Promise<Step> {
    const s = b.state;
    const teamId = b.teamId;
    const call = async <T>(method: string, fn: () => Promise<T>): Promise<T> => {
      await deps.slack.pace(teamId, method);
      return fn();
    };
    const cursorOf = (res: { response_metadata?: { next_cursor?: string } }): string | undefined =>
      res.response_metadata?.next_cursor || undefined;

    if (s.phase === 'users') {
      const res = await call('users.list', () => client.users.list({ cursor: s.cursor, limit: 200 }));
      const cursor = cursorOf(res);
      return {
        state: cursor ? { ...s, cursor } : { ...s, cursor: undefined, phase: 'channels' },
        messages: 0,
        channelDone: false,
        write: async (p) => {
          for (const u of res.members ?? []) {
            const row = memberRow(u);
            const { inserted, wasDeleted } = await factsRepo.upsertMember(p.tx, teamId, row, null);
            const at = u.updated ? new Date(u.updated * 1000) : null;
            if (row.deleted && (inserted || wasDeleted === false) && at && at.getTime() / 1000 >= s.oldest) {
              await factsRepo.setMemberLeft(p.tx, teamId, row.memberId, at);
              await factsRepo.addMemberEventOnce(p.tx, teamId, row.memberId, 'leave', at, localDay(at, tz));
            }
          }
        },
      };
    }

    if (s.phase === 'channels') {
      const res = await call('conversations.list', () =>
        client.conversations.list({
          cursor: s.cursor,
          limit: 200,
          types: 'public_channel,private_channel',
          exclude_archived: false,
        }),
      );
      const channels = [...s.channels];
      // A channel without an id or name is not one we can import.
      const listed = (res.channels ?? []).flatMap((c) =>
        c.id && c.name ? [{ ...c, id: c.id, name: c.name }] : [],
      );
      for (const c of listed) channels.push({ id: c.id, general: Boolean(c.is_general) });
      for (const c of listed) {
        if (!c.is_member && !c.is_private && !c.is_archived) {
          await call('conversations.join', () => client.conversations.join({ channel: c.id })).catch(
            (err: unknown) =>
              deps.logger.warn(
                { teamId, channel: c.id, slackError: slackErrorOf(err) },
                'could not join channel',
              ),
          );
        }
      }
      const cursor = cursorOf(res);
      const state: BackfillState = cursor
        ? { ...s, cursor, channels }
        : { ...s, cursor: undefined, channels, ci: 0, phase: channels.length ? 'members' : 'done' };
      return {
        state,
        messages: 0,
        channelDone: false,
        write: async (p) => {
          for (const c of listed) {
            await factsRepo.upsertChannel(p.tx, teamId, {
              id: c.id,
              name: c.name,
              isPrivate: Boolean(c.is_private),
              isArchived: Boolean(c.is_archived),
              created: c.created ? new Date(c.created * 1000) : null,
            });
          }
        },
      };
    }

    const channel = s.channels[s.ci];
    if (!channel) return { state: { ...s, phase: 'done' }, messages: 0, channelDone: false };

    if (s.phase === 'members') {
      const res = await call('conversations.members', () =>
        client.conversations.members({ channel: channel.id, cursor: s.cursor, limit: 1000 }),
      );
      const write = (p: IngestScope) =>
        factsRepo.setChannelMembers(p.tx, teamId, channel.id, res.members ?? []);
      const cursor = cursorOf(res);
      if (cursor) return { state: { ...s, cursor }, messages: 0, channelDone: false, write };
      return { state: afterMembers(s), messages: 0, channelDone: false, write };
    }

    if (s.phase === 'history') {
      const res = await call('conversations.history', () =>
        client.conversations.history({
          channel: channel.id,
          oldest: String(s.oldest),
          limit: deps.slack.historyLimit(teamId),
          cursor: s.cursor,
        }),
      );
      const list = res.messages ?? [];
      noteHistoryPage(teamId, list.length, Boolean(cursorOf(res)));
      // Replies are fetched page by page (this page's threads, then the next page), which keeps the saved
      // position small however many threads a channel has.
      const threads = list
        .filter((m) => (m.reply_count ?? 0) > 0 && m.thread_ts === m.ts)
        .map((m) => String(m.ts));
      const write = async (p: IngestScope) => {
        for (const m of list) {
          // The members phase has just listed who is in the channel now: a join in its history only dates a
          // membership (a member who joined and left since must not come back).
          if (m.subtype === 'channel_join' && m.user && m.ts)
            await factsRepo.setChannelJoinedAt(p.tx, teamId, channel.id, m.user, tsToDate(m.ts));
          else await recordMessage(p, channel.id, m);
          if (channel.general && m.subtype === 'channel_join' && m.user && m.ts) {
            const at = tsToDate(m.ts);
            await factsRepo.setJoinedAt(p.tx, teamId, m.user, at);
            await factsRepo.addMemberEventOnce(p.tx, teamId, m.user, 'join', at, localDay(at, tz));
          }
        }
      };
      const cursor = cursorOf(res);
      const after = { ...s, cursor: undefined, historyCursor: cursor, threads };
      if (threads.length)
        return { state: { ...after, phase: 'replies' }, messages: list.length, channelDone: false, write };
      return { ...afterThreads(after), messages: list.length, write };
    }

    // replies
    const thread = s.threads[0];
    if (!thread) return { ...afterThreads(s), messages: 0 };
    const res = await call('conversations.replies', () =>
      client.conversations.replies({
        channel: channel.id,
        ts: thread,
        limit: deps.slack.historyLimit(teamId),
        cursor: s.cursor,
      }),
    );
    noteHistoryPage(teamId, (res.messages ?? []).length, Boolean(cursorOf(res)));
    const replies = (res.messages ?? []).filter((m) => m.ts !== thread);
    const write = async (p: IngestScope) => {
      for (const m of replies) await recordMessage(p, channel.id, m);
    };
    const cursor = cursorOf(res);
    if (cursor) return { state: { ...s, cursor }, messages: replies.length, channelDone: false, write };
    const rest = s.threads.slice(1);
    if (rest.length)
      return {
        state: { ...s, cursor: undefined, threads: rest },
        messages: replies.length,
        channelDone: false,
        write,
      };
    return { ...afterThreads({ ...s, cursor: undefined, threads: [] }), messages: replies.length, write };
  }

  type Patch = Parameters<ReturnType<typeof backfillRepo>['saveStep']>[2];

  /**
   * Writes pages behind the calls: whatever pages arrived while the previous transaction ran go in together,
   * with the position after the last of them, in one transaction. A page is never written without its
   * position or the other way round, so a restart resumes exactly; the import waits for the database only
   * when it falls `maxBehind` pages behind.
   */
  function pageWriter(teamId: string, tz: string, maxBehind = 200) {
    let queue: { write?: Step['write']; patch: Patch }[] = [];
    let running: Promise<void> | undefined;
    let failed: { err: unknown } | undefined;
    const writeGroup = (group: typeof queue) =>
      deps.db.transaction(async (tx) => {
        await xactLock(tx, LOCKS.ingest);
        const scope: IngestScope = {
          ...{ tx, teamId, tz, buf: rollupBuffer() },
          ...{ facts: factsWriter(), bots: botDirectory() },
        };
        for (const g of group) await g.write?.(scope);
        await scope.facts!.flush(tx);
        await scope.buf.flush(tx);
        await repo.saveStep(tx, teamId, group.at(-1)!.patch);
      });
    const pump = () => {
      running = (async () => {
        while (queue.length && !failed) {
          const group = queue;
          queue = [];
          await writeGroup(group).catch((err: unknown) => {
            failed = { err };
          });
        }
      })().finally(() => {
        running = undefined;
      });
    };
    return {
      async push(write: Step['write'], patch: Patch) {
        if (failed) throw failed.err;
        queue.push({ write, patch });
        if (!running) pump();
        if (queue.length >= maxBehind) await running;
      },
      /** Waits until everything pushed is written; throws what a write threw. */
      async settle() {
        for (;;) {
          if (running) await running;
          else if (queue.length && !failed) pump();
          else break;
        }
        if (failed) throw failed.err;
      },
    };
  }

  /** A step, or the skip of its channel when Slack refuses that channel. */
  async function stepOrSkip(b: Backfill, client: WebClient, tz: string): Promise<Step> {
    try {
      return await step(b, client, tz);
    } catch (err) {
      const code = slackErrorOf(err);
      const phase = b.state.phase;
      if (!code || !SKIP_CHANNEL.has(code) || !['history', 'replies', 'members'].includes(phase)) throw err;
      deps.logger.warn(
        { teamId: b.teamId, channel: b.state.channels[b.state.ci]?.id, slackError: code },
        'skipping channel',
      );
      const members = phase === 'members';
      return {
        state: members ? afterMembers(b.state) : nextChannel(b.state),
        messages: 0,
        channelDone: !members,
      };
    }
  }

  /**
   * Rough time left: the channels still to import, each costing the history and replies calls a channel has
   * cost so far (at least one), at this workspace's history pace. Null before the channels are listed.
   */
  function remainingSeconds(b: Backfill, teamId: string): number | null {
    const total = b.state.channels.length;
    if (b.state.phase === 'users' || b.state.phase === 'channels' || total === 0) return null;
    const left = Math.max(0, total - b.channelsDone);
    const perChannel = b.channelsDone > 0 ? Math.max(1, b.requests / b.channelsDone) : 1;
    return Math.ceil((left * perChannel * 60) / deps.slack.perMinute('conversations.history', teamId));
  }

  return {
    /** Starts (or restarts) the import of a workspace. */
    start: (teamId: string) => repo.start(teamId, deps.days),

    /**
     * Works on an import for up to `budgetMs`, or until `stop` is aborted (the process is stopping: the page in
     * hand is written with its position and the import is left for the next run). Returns 'more' when there is
     * more to do, 'busy' when another runner holds the lease (or a crashed one's lease has not lapsed yet),
     * 'finished' otherwise.
     */
    async run(teamId: string, budgetMs: number, stop?: AbortSignal): Promise<'more' | 'busy' | 'finished'> {
      if (!(await repo.lease(teamId, false)))
        return (await repo.get(teamId))?.status === 'running' ? 'busy' : 'finished';
      const deadline = Date.now() + budgetMs;
      try {
        const client = deps.slack.client(await deps.workspaces.botToken(teamId));
        const tz = await deps.workspaces.timezone(teamId);
        let b = (await repo.get(teamId))!;
        // Detected by an earlier run (maybe in another process): saved with the position.
        if (b.state.limited) deps.slack.markHistoryLimited(teamId);
        let hits = deps.slack.rateLimitHits();
        const writer = pageWriter(teamId, tz);
        try {
          while (b.state.phase !== 'done' && Date.now() < deadline && !stop?.aborted) {
            const out = await stepOrSkip(b, client, tz);
            const now = deps.slack.rateLimitHits();
            const limited = deps.slack.historyLimited(teamId);
            const patch = {
              state: { ...out.state, limited },
              requests: b.requests + 1,
              rateLimited: b.rateLimited + (now - hits),
              messages: b.messages + out.messages,
              channelsTotal: out.state.channels.length,
              channelsDone:
                out.state.phase === 'done'
                  ? out.state.channels.length
                  : b.channelsDone + (out.channelDone ? 1 : 0),
            };
            hits = now;
            // Written while the next call goes out; nothing the next call asks depends on this write.
            await writer.push(out.write, patch);
            b = { ...b, ...patch };
          }
        } catch (err) {
          // Keep what was fetched before the failure (written with its position), then report the failure.
          await writer.settle().catch(() => {});
          throw err;
        }
        await writer.settle();
        if (b.state.phase === 'done') {
          const finishedAt = new Date();
          await repo.save(teamId, { status: 'done', finishedAt, leasedUntil: null });
          deps.logger.info({ teamId, messages: b.messages, requests: b.requests }, 'history import finished');
          await deps.onFinished?.(teamId, { status: 'done', messages: b.messages, finishedAt });
          return 'finished';
        }
        await repo.release(teamId);
        return 'more';
      } catch (err) {
        const code = slackErrorOf(err);
        if (code && FATAL.has(code)) {
          deps.logger.error({ teamId, slackError: code }, 'history import failed');
          const error = `Slack refused the import (${code})`;
          await repo.save(teamId, { status: 'failed', error, leasedUntil: null });
          const messages = (await repo.get(teamId))?.messages ?? 0;
          await deps.onFinished?.(teamId, { status: 'failed', messages, error, finishedAt: new Date() });
          return 'finished';
        }
        await repo.release(teamId);
        throw err;
      }
    },

    async progress(teamId: string): Promise<BackfillProgress | null> {
      const b = await repo.get(teamId);
      if (!b) return null;
      const phases = b.state.phase === 'users' || b.state.phase === 'channels' || b.state.phase === 'members';
      const percent =
        b.status === 'done'
          ? 100
          : phases || b.channelsTotal === 0
            ? 0
            : Math.min(99, Math.floor((100 * b.channelsDone) / b.channelsTotal));
      const limited = Boolean(b.state.limited) || deps.slack.historyLimited(teamId);
      return {
        status: b.status,
        percent,
        messages: b.messages,
        error: b.error,
        pacing: limited ? 'limited' : 'standard',
        remaining_seconds: b.status === 'running' ? remainingSeconds(b, teamId) : null,
      };
    },

    listRunning: () => repo.listRunning(),
    raw: (teamId: string) => repo.get(teamId),
  };
}
