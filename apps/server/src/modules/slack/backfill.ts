import type { WebClient } from '@slack/web-api';
import type { Db } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SlackApi } from '../../slack/client.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { backfillRepo, type Backfill, type BackfillState } from './backfill-repo.ts';
import { localDay, tsToDate } from './days.ts';
import { factsRepo } from './facts-repo.ts';
import { ingestLock } from './inbox-repo.ts';
import { memberRow, recordMessage, type IngestScope } from './ingest.ts';
import { rollupBuffer } from './rollups.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- Slack payloads are open JSON */

export type BackfillService = ReturnType<typeof backfillService>;
export type BackfillProgress = {
  status: 'running' | 'done' | 'failed';
  percent: number;
  messages: number;
  error: string | null;
};

/** Errors after which a channel is skipped rather than the whole import failed. */
const SKIP_CHANNEL = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'method_not_supported_for_channel_type',
]);
const FATAL = new Set(['invalid_auth', 'account_inactive', 'token_revoked', 'not_authed', 'missing_scope']);

/**
 * History import after install: users, channels, channel members, then each channel's history with thread
 * replies, going back `days`. Every page is one transaction (facts + rollups) and the position is saved
 * after it, so a restart resumes where it stopped. Calls are paced to each method's tier.
 */
export function backfillService(deps: {
  db: Db;
  slack: SlackApi;
  workspaces: WorkspacesService;
  logger: Logger;
  days: number;
}) {
  const repo = backfillRepo(deps.db);

  async function inPage(teamId: string, tz: string, fn: (s: IngestScope) => Promise<void>) {
    await deps.db.transaction(async (tx) => {
      await ingestLock(tx);
      const buf = rollupBuffer();
      await fn({ tx, teamId, tz, buf });
      await buf.flush(tx);
    });
  }

  /** After a channel's members: the next channel's members, or the first channel's history. */
  const afterMembers = (s: BackfillState): BackfillState =>
    s.ci + 1 >= s.channels.length
      ? { ...s, ci: 0, cursor: undefined, phase: 'history' }
      : { ...s, ci: s.ci + 1, cursor: undefined };
  /** After a channel's history and replies: the next channel's history, or done. */
  const nextChannel = (s: BackfillState): BackfillState => {
    const ci = s.ci + 1;
    return { ...s, ci, cursor: undefined, threads: [], phase: ci >= s.channels.length ? 'done' : 'history' };
  };

  /** One API call and what follows from it; returns the new state and counters. */
  async function step(
    b: Backfill,
    client: WebClient,
    tz: string,
  ): Promise<{ state: BackfillState; messages: number; channelDone: boolean }> {
    const s = b.state;
    const teamId = b.teamId;
    const call = async <T>(method: string, fn: () => Promise<T>): Promise<T> => {
      await deps.slack.pace(teamId, method);
      return fn();
    };
    const cursorOf = (res: any): string | undefined => res.response_metadata?.next_cursor || undefined;

    if (s.phase === 'users') {
      const res: any = await call('users.list', () => client.users.list({ cursor: s.cursor, limit: 200 }));
      await inPage(teamId, tz, async (p) => {
        for (const u of res.members ?? []) {
          const row = memberRow(u);
          const { inserted, wasDeleted } = await factsRepo.upsertMember(p.tx, teamId, row, null);
          const at = u.updated ? new Date(u.updated * 1000) : null;
          if (row.deleted && (inserted || wasDeleted === false) && at && at.getTime() / 1000 >= s.oldest) {
            await factsRepo.setMemberLeft(p.tx, teamId, row.memberId, at);
            await factsRepo.addMemberEventOnce(p.tx, teamId, row.memberId, 'leave', at, localDay(at, tz));
          }
        }
      });
      const cursor = cursorOf(res);
      return {
        state: cursor ? { ...s, cursor } : { ...s, cursor: undefined, phase: 'channels' },
        messages: 0,
        channelDone: false,
      };
    }

    if (s.phase === 'channels') {
      const res: any = await call('conversations.list', () =>
        client.conversations.list({
          cursor: s.cursor,
          limit: 200,
          types: 'public_channel,private_channel',
          exclude_archived: false,
        }),
      );
      const channels = [...s.channels];
      await inPage(teamId, tz, async (p) => {
        for (const c of res.channels ?? []) {
          await factsRepo.upsertChannel(p.tx, teamId, {
            id: c.id,
            name: c.name,
            isPrivate: Boolean(c.is_private),
            isArchived: Boolean(c.is_archived),
            created: c.created ? new Date(c.created * 1000) : null,
          });
          channels.push({ id: c.id, general: Boolean(c.is_general) });
        }
      });
      for (const c of res.channels ?? []) {
        if (!c.is_member && !c.is_private && !c.is_archived) {
          await call('conversations.join', () => client.conversations.join({ channel: c.id })).catch((err) =>
            deps.logger.warn(
              { teamId, channel: c.id, slackError: err?.data?.error },
              'could not join channel',
            ),
          );
        }
      }
      const cursor = cursorOf(res);
      const state: BackfillState = cursor
        ? { ...s, cursor, channels }
        : { ...s, cursor: undefined, channels, ci: 0, phase: channels.length ? 'members' : 'done' };
      return { state, messages: 0, channelDone: false };
    }

    const channel = s.channels[s.ci];
    if (!channel) return { state: { ...s, phase: 'done' }, messages: 0, channelDone: false };

    if (s.phase === 'members') {
      const res: any = await call('conversations.members', () =>
        client.conversations.members({ channel: channel.id, cursor: s.cursor, limit: 1000 }),
      );
      await inPage(teamId, tz, (p) =>
        factsRepo.setChannelMembers(p.tx, teamId, channel.id, res.members ?? []),
      );
      const cursor = cursorOf(res);
      if (cursor) return { state: { ...s, cursor }, messages: 0, channelDone: false };
      return { state: afterMembers(s), messages: 0, channelDone: false };
    }

    if (s.phase === 'history') {
      const res: any = await call('conversations.history', () =>
        client.conversations.history({
          channel: channel.id,
          oldest: String(s.oldest),
          limit: deps.slack.historyLimit,
          cursor: s.cursor,
        }),
      );
      const threads = [...s.threads];
      let messages = 0;
      await inPage(teamId, tz, async (p) => {
        for (const m of res.messages ?? []) {
          await recordMessage(p, channel.id, m);
          messages++;
          if (channel.general && m.subtype === 'channel_join' && m.user) {
            const at = tsToDate(m.ts);
            await factsRepo.setJoinedAt(p.tx, teamId, m.user, at);
            await factsRepo.addMemberEventOnce(p.tx, teamId, m.user, 'join', at, localDay(at, tz));
          }
          if (m.reply_count > 0 && m.thread_ts === m.ts) threads.push(m.ts);
        }
      });
      const cursor = cursorOf(res);
      if (cursor) return { state: { ...s, cursor, threads }, messages, channelDone: false };
      if (threads.length)
        return {
          state: { ...s, cursor: undefined, threads, phase: 'replies' },
          messages,
          channelDone: false,
        };
      return { state: nextChannel(s), messages, channelDone: true };
    }

    // replies
    const thread = s.threads[0];
    if (!thread) return { state: nextChannel(s), messages: 0, channelDone: true };
    const res: any = await call('conversations.replies', () =>
      client.conversations.replies({
        channel: channel.id,
        ts: thread,
        limit: deps.slack.historyLimit,
        cursor: s.cursor,
      }),
    );
    let messages = 0;
    await inPage(teamId, tz, async (p) => {
      for (const m of res.messages ?? []) {
        if (m.ts === thread) continue;
        await recordMessage(p, channel.id, m);
        messages++;
      }
    });
    const cursor = cursorOf(res);
    if (cursor) return { state: { ...s, cursor }, messages, channelDone: false };
    const rest = s.threads.slice(1);
    if (rest.length)
      return { state: { ...s, cursor: undefined, threads: rest }, messages, channelDone: false };
    return { state: nextChannel(s), messages, channelDone: true };
  }

  return {
    /** Starts (or restarts) the import of a workspace. */
    start: (teamId: string) => repo.start(teamId, deps.days),

    /**
     * Works on an import for up to `budgetMs`. Returns 'more' when there is more to do, 'busy' when another
     * runner holds the lease (or a crashed one's lease has not lapsed yet), 'finished' otherwise.
     */
    async run(teamId: string, budgetMs: number): Promise<'more' | 'busy' | 'finished'> {
      if (!(await repo.lease(teamId, false)))
        return (await repo.get(teamId))?.status === 'running' ? 'busy' : 'finished';
      const deadline = Date.now() + budgetMs;
      try {
        const client = deps.slack.client(await deps.workspaces.botToken(teamId));
        const tz = (await deps.workspaces.timezones([teamId])).get(teamId) ?? 'UTC';
        let b = (await repo.get(teamId))!;
        while (b.state.phase !== 'done' && Date.now() < deadline) {
          const before = deps.slack.rateLimitHits();
          let out;
          try {
            out = await step(b, client, tz);
          } catch (err: any) {
            const code = err?.data?.error as string | undefined;
            if (
              code &&
              SKIP_CHANNEL.has(code) &&
              (b.state.phase === 'history' || b.state.phase === 'replies' || b.state.phase === 'members')
            ) {
              deps.logger.warn(
                { teamId, channel: b.state.channels[b.state.ci]?.id, slackError: code },
                'skipping channel',
              );
              const members = b.state.phase === 'members';
              out = {
                state: members ? afterMembers(b.state) : nextChannel(b.state),
                messages: 0,
                channelDone: !members,
              };
            } else throw err;
          }
          const patch = {
            state: out.state,
            requests: b.requests + 1,
            rateLimited: b.rateLimited + (deps.slack.rateLimitHits() - before),
            messages: b.messages + out.messages,
            channelsTotal: out.state.channels.length,
            channelsDone:
              out.state.phase === 'done'
                ? out.state.channels.length
                : b.channelsDone + (out.channelDone ? 1 : 0),
          };
          await repo.save(teamId, patch);
          await repo.lease(teamId, true);
          b = { ...b, ...patch };
        }
        if (b.state.phase === 'done') {
          await repo.save(teamId, { status: 'done', finishedAt: new Date(), leasedUntil: null });
          deps.logger.info({ teamId, messages: b.messages, requests: b.requests }, 'history import finished');
          return 'finished';
        }
        await repo.release(teamId);
        return 'more';
      } catch (err: any) {
        const code = err?.data?.error as string | undefined;
        if (code && FATAL.has(code)) {
          deps.logger.error({ teamId, slackError: code }, 'history import failed');
          await repo.save(teamId, {
            status: 'failed',
            error: `Slack refused the import (${code})`,
            leasedUntil: null,
          });
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
      return { status: b.status, percent, messages: b.messages, error: b.error };
    },

    listRunning: () => repo.listRunning(),
    raw: (teamId: string) => repo.get(teamId),
  };
}
