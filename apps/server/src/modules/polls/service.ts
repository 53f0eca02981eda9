import { MAX_LEAD_MS, MIN_LEAD_MS } from '@flywheel/shared/clock';
import {
  canonicalEmoji,
  defaultPollEnd,
  POLL_MAX_DURATION_MS,
  POLL_TEXTS,
  type createPollBody,
  type Poll,
  type Voter,
} from '@flywheel/shared/polls';
import { truncateText } from '@flywheel/shared/text';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Emit } from '../webhooks/service.ts';
import type { AudienceService } from '../audience/service.ts';
import type { DeliveryService } from '../delivery/service.ts';
import { pollText } from './render.ts';
import { recurringPolls } from './recurring.ts';
import { pollsRepo, type PollRecord } from './repo.ts';

type CreateBody = z.output<typeof createPollBody>;

/** What the service asks the job queue for (wired in context.ts). */
export type PollJobs = {
  /** Brings the poll's Slack messages up to date soon (coalesced: at most one update per poll every few s). */
  refresh(pollId: number, delayMs?: number): Promise<void>;
  /** Closes the poll at its end. */
  closeAt(pollId: number, at: number): Promise<void>;
  /** Removes a deleted poll's messages from Slack. */
  remove(pollId: number): Promise<void>;
};

/** How long a worker holds a poll it posts, closes or removes. */
const LEASE_MS = 2 * 60_000;
/** A poll's messages not recorded yet are looked up at a reaction only this long after it was posted. */
const SETTLE_WINDOW_MS = 60 * 60_000;
/** While its delivery is still posting, the poll's messages are looked at again after this. */
const SETTLE_RETRY_MS = 2_000;
/** How far Slack's clock (an event's time) may be from ours. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The question on one line, at most 60 characters (never half of an emoji: see truncateText). */
const snippet = (text: string) => truncateText(text.replace(/\s+/g, ' ').trim(), 60, '...');

/** Reactions Slack sends as a vote: the event of a member reacting on a message. */
export type ReactionEvent = {
  user: string;
  reaction: string;
  item: { type: string; channel?: string; ts?: string };
  event_ts?: string;
};

/**
 * Polls: created in the dashboard, posted in channels through the delivery engine (one receipt), voted on with
 * the options' emoji reactions (one vote per member, kept by the events listener), shown live in Slack
 * (coalesced chat.update through delivery) and closed once at their end with the final results.
 */
export const pollsService = (deps: {
  db: Db;
  audience: AudienceService;
  delivery: DeliveryService;
  /** Inside a transaction, pass it as `tx` (db/tx-guard.ts). */
  timezoneOf: (teamId: string, tx?: Tx) => Promise<string>;
  jobs: PollJobs;
  logger: Logger;
  now?: () => number;
  /** Outbound webhooks (webhooks/service.ts `emit`): only queues, never throws. */
  emit?: Emit;
  /** A recurring poll's run planned later than this is skipped (default 1 hour). */
  graceMs?: number;
}) => {
  const repo = pollsRepo(deps.db);
  const now = () => deps.now?.() ?? Date.now();

  /** poll.closed (webhooks), once per poll; what fails here is logged and never fails the close. */
  const emitClosed = async (id: number, teamId: string) => {
    if (!deps.emit) return;
    try {
      await deps.emit(teamId, 'poll.closed', await closedPoll(id), { dedupeKey: `poll.closed:${id}` });
    } catch (err) {
      deps.logger.warn({ err, poll: id }, 'poll.closed webhook event not recorded');
    }
  };

  /** poll.closed's data: the question and each option's final count. */
  const closedPoll = async (id: number) => {
    const p = (await repo.byId(id))!;
    const counts = (await repo.counts([id])).get(id) ?? new Map<number, number>();
    const options = p.options.map((o, i) => ({ emoji: o.emoji, text: o.value, votes: counts.get(i) ?? 0 }));
    return {
      poll_id: p.id,
      question: p.question,
      channel_ids: p.channel_ids,
      options,
      total_votes: options.reduce((n, o) => n + o.votes, 0),
      closed_at: p.closed_at,
      receipt_id: p.receipt_id,
    };
  };

  const stateOf = (p: PollRecord, at: number): Poll['state'] => {
    if (p.receipt_id === null && p.closed_at === null) return 'scheduled';
    if (p.closed_at !== null || Date.parse(p.expires_at) <= at) return 'expired';
    return 'active';
  };

  async function toPolls(teamId: string, records: PollRecord[]): Promise<Poll[]> {
    const counts = await repo.counts(records.map((p) => p.id));
    const names = await repo.channelNames(teamId, [...new Set(records.flatMap((p) => p.channel_ids))]);
    const at = now();
    return records.map((p) => {
      const c = counts.get(p.id) ?? new Map<number, number>();
      const state = stateOf(p, at);
      return {
        id: p.id,
        created_by: p.created_by,
        expiry_ts: new Date(p.expires_at).toISOString(),
        question: p.question,
        htmlquestion: p.html,
        status: state !== 'expired',
        state,
        poll_options: p.options.map((o, i) => ({ ...o, count: c.get(i) ?? 0 })),
        total_votes: [...c.values()].reduce((a, b) => a + b, 0),
        sender: p.sender,
        admin_user: p.admin_user,
        type: p.type,
        post_at: new Date(p.post_at).toISOString(),
        images: p.images,
        channel_ids: p.channel_ids,
        channels: p.channel_ids.map((id) => names.get(id) ?? id),
        receipt_id: p.receipt_id,
        created_at: new Date(p.created_at).toISOString(),
      };
    });
  }

  async function found(teamId: string, id: number): Promise<PollRecord> {
    const p = await repo.find(teamId, id);
    if (!p) throw notFound('No such poll in this workspace');
    return p;
  }

  /** Posts a poll through the delivery engine (named by the poll: posting twice makes one receipt). */
  async function post(
    p: PollRecord,
    userId: string | null,
    origin: 'person' | 'automation',
  ): Promise<number> {
    const tz = await deps.timezoneOf(p.team_id);
    const receipt = await deps.delivery.send({
      teamId: p.team_id,
      userId,
      actionType: 'Poll',
      sender: p.sender,
      adminUser: p.admin_user,
      text: pollText({
        question: p.question,
        options: p.options,
        counts: new Map(),
        expiresAt: Date.parse(p.expires_at),
        closed: false,
        tz,
      }),
      images: p.images,
      description: `Poll: ${snippet(p.question)}`,
      audience: {
        channel_ids: p.channel_ids,
        dms: { members: [], tags: [], channels: [] },
        sendtoworkspace: false,
      },
      recipients: { members: [], channels: p.channel_ids },
      idempotencyKey: `poll:${p.id}`,
      origin,
    });
    await repo.setReceipt(p.id, receipt.receipt_id);
    await deps.jobs.refresh(p.id, SETTLE_RETRY_MS);
    await deps.jobs.closeAt(p.id, Date.parse(p.expires_at));
    return receipt.receipt_id;
  }

  /** Records the messages the poll's delivery has posted so far; answers whether some are still to come. */
  async function settle(p: PollRecord, runner: Tx = deps.db): Promise<boolean> {
    if (p.receipt_id === null) return false;
    const posted = await deps.delivery.postedMessages(p.team_id, p.receipt_id);
    await repo.saveMessages(runner, p.id, p.team_id, posted.messages);
    return posted.open > 0;
  }

  /** Puts the poll's current (or final) results in each of its Slack messages. */
  async function showResults(p: PollRecord): Promise<void> {
    const [tz, counts, messages] = await Promise.all([
      deps.timezoneOf(p.team_id),
      repo.counts([p.id]),
      repo.messages(p.id),
    ]);
    const text = pollText({
      question: p.question,
      options: p.options,
      counts: counts.get(p.id) ?? new Map(),
      expiresAt: Date.parse(p.expires_at),
      closed: p.closed_at !== null,
      tz,
    });
    for (const m of messages)
      await deps.delivery.editPosted(p.team_id, {
        sender: p.sender,
        adminUser: p.admin_user,
        channel: m.channel,
        ts: m.ts,
        text,
        images: p.images,
      });
  }

  return {
    /** Recurring polls (recurring.ts): each run becomes a scheduled poll of its own. */
    recurring: recurringPolls({
      db: deps.db,
      audience: deps.audience,
      timezoneOf: deps.timezoneOf,
      graceMs: deps.graceMs ?? 60 * 60_000,
      logger: deps.logger,
      now,
      adminName: (teamId, memberId) => repo.adminName(teamId, memberId),
      channelNames: (teamId, ids) => repo.channelNames(teamId, ids),
      toPolls,
    }),

    async create(userId: string | null, b: CreateBody): Promise<{ poll: Poll; message: string }> {
      const t = now();
      let start = t;
      if (b.type === 'scheduled') {
        start = Date.parse(b.post_at!);
        if (start <= t) throw new AppError('VALIDATION_ERROR', 400, POLL_TEXTS.pastTime);
        if (start < t + MIN_LEAD_MS || start > t + MAX_LEAD_MS)
          throw new AppError('VALIDATION_ERROR', 400, POLL_TEXTS.invalidRange);
      }
      const end = b.expiry_ts ? Date.parse(b.expiry_ts) : defaultPollEnd(start);
      if (end <= start) throw new AppError('VALIDATION_ERROR', 400, POLL_TEXTS.endAfterStart);
      if (end > start + POLL_MAX_DURATION_MS)
        throw new AppError('VALIDATION_ERROR', 400, POLL_TEXTS.endTooFar);
      // The channels must be this workspace's (a 400 naming the unknown ones otherwise).
      await deps.audience.resolve(b.team_id, {
        channel_ids: b.channel_ids,
        dms: { members: [], tags: [], channels: [] },
        sendtoworkspace: false,
      });
      const adminName =
        b.sender === 'admin' && b.admin_user ? await repo.adminName(b.team_id, b.admin_user) : null;
      const id = await repo.insert({
        team_id: b.team_id,
        question: b.poll_question,
        html: b.htmlquestion ?? '',
        images: b.images,
        options: b.options.map((o) => ({
          emoji: o.emoji.trim(),
          emoji_code: o.emoji_code.replace(/^:|:$/g, ''),
          value: o.value.trim(),
        })),
        channel_ids: [...new Set(b.channel_ids)],
        sender: b.sender,
        admin_user: b.sender === 'admin' ? (b.admin_user ?? null) : null,
        type: b.type,
        created_by: b.created_by?.trim() || (b.sender === 'bot' ? 'Bot' : (adminName ?? 'Admin')),
        created_by_user: userId,
        post_at: new Date(start).toISOString(),
        expires_at: new Date(end).toISOString(),
      });
      if (b.type === 'instant') {
        try {
          await post((await repo.byId(id))!, userId, 'person');
        } catch (err) {
          // Nothing was sent (the sender, images or channels were refused): no poll either.
          await repo.hardDelete(id);
          throw err;
        }
      }
      const [poll] = await toPolls(b.team_id, [(await repo.byId(id))!]);
      return { poll: poll!, message: b.type === 'instant' ? POLL_TEXTS.created : POLL_TEXTS.scheduled };
    },

    async list(teamId: string, search?: string): Promise<Poll[]> {
      return toPolls(teamId, await repo.list(teamId, search?.trim() || undefined));
    },

    async info(teamId: string, id: number): Promise<Poll> {
      const [poll] = await toPolls(teamId, [await found(teamId, id)]);
      return poll!;
    },

    async voters(teamId: string, id: number): Promise<Voter[]> {
      const p = await found(teamId, id);
      return (await repo.voters(p.id)).map((v) => ({
        user_id: v.member_id,
        email: v.email,
        name: v.name,
        value: p.options[v.option]?.value ?? '',
        emoji: p.options[v.option]?.emoji ?? '',
        voted_at: new Date(v.voted_at).toISOString(),
      }));
    },

    /** The rows of PollDetails.csv: email, value (the option voted for), name. */
    async exportRows(teamId: string, id: number) {
      return (await this.voters(teamId, id)).map((v) => ({ email: v.email, value: v.value, name: v.name }));
    },

    /** Deletes a poll now; its Slack messages are removed by a job (after its delivery has posted them). */
    async remove(teamId: string, id: number): Promise<void> {
      if (!(await repo.markDeleted(teamId, id, now()))) throw notFound('No such poll in this workspace');
      await deps.jobs.remove(id);
    },

    /**
     * Posts the scheduled polls whose time has come (the minute tick), each once. Never wedged twice without a
     * count (unlike lib/plan-due.ts): a poll is claimed for LEASE_MS by one statement that commits at once and is
     * posted outside any transaction, so a process stuck or killed here holds nothing; the claim lapses, the next
     * tick takes it again, and its send's key finds its receipt. closeDue claims the same way.
     */
    async postDue(): Promise<number> {
      const due = await repo.claimToPost(now(), LEASE_MS);
      for (const p of due) {
        try {
          await post(p, null, 'automation');
        } catch (err) {
          if (err instanceof AppError && err.statusCode < 500) {
            // It cannot be posted as set up (the admin gone, a channel deleted): closed, not tried again.
            deps.logger.warn({ poll: p.id, err: err.message }, 'scheduled poll not posted; closed');
            await repo.markUnposted(p.id, now());
          } else {
            deps.logger.error(
              { err, poll: p.id },
              'scheduled poll post failed; tried again at the next tick',
            );
            await repo.release(p.id);
          }
        }
      }
      return due.length;
    },

    /**
     * Closes the polls whose end has come (one, or all due): each is closed exactly once (claimed in the
     * database), and its messages then show the final results. Answers how many this call closed.
     */
    async closeDue(pollId?: number): Promise<number> {
      const claimed = await repo.claimToClose(now(), LEASE_MS, { pollId });
      let closed = 0;
      for (const p of claimed) {
        if (p.first) closed++;
        try {
          await settle(p);
          await showResults(p);
          await repo.markFinal(p.id, now());
          await emitClosed(p.id, p.team_id);
        } catch (err) {
          deps.logger.warn({ err, poll: p.id }, 'final poll results not shown yet; tried again later');
          await repo.release(p.id);
        }
      }
      return closed;
    },

    /** The refresh job: records the poll's messages and shows its counts; false when the poll is gone. */
    async refresh(pollId: number): Promise<boolean> {
      const p = await repo.byId(pollId);
      if (!p || p.deleted_at || p.final_at) return false;
      const pending = await settle(p);
      await showResults(p);
      if (pending) await deps.jobs.refresh(p.id, SETTLE_RETRY_MS);
      return true;
    },

    /** The remove job: deletes a deleted poll's messages from Slack, then the poll; false to try again later. */
    async removeMessages(pollId: number): Promise<boolean> {
      const p = await repo.byId(pollId);
      if (!p) return true;
      if (!p.deleted_at) return true;
      if (p.receipt_id !== null) {
        if (await settle(p)) return false; // still posting: its messages are removed once they are all there
      }
      for (const m of await repo.messages(p.id))
        await deps.delivery.deletePosted(p.team_id, {
          sender: p.sender,
          adminUser: p.admin_user,
          channel: m.channel,
          ts: m.ts,
        });
      await repo.hardDelete(p.id);
      return true;
    },

    /** Deleted polls whose messages wait for removal (the tick retries them). */
    deletedIds: () => repo.deletedIds(),

    /**
     * A reaction added or removed on a message (the events listener, inside its transaction): a vote when the
     * message is an open poll's and the emoji is one of its options, by a member who is not a bot. Answers
     * the poll whose votes changed.
     */
    async applyReaction(tx: Tx, teamId: string, e: ReactionEvent, added: boolean): Promise<number | null> {
      if (e.item.type !== 'message' || !e.item.channel || !e.item.ts) return null;
      let pollId = await repo.pollOfMessage(tx, teamId, e.item.channel, e.item.ts);
      if (pollId === undefined) {
        // Its delivery may have posted it a moment ago: look at the polls whose messages are not all known.
        const at = e.event_ts ? Number(e.event_ts) * 1000 : now();
        for (const p of await repo.unsettled(tx, teamId, at - SETTLE_WINDOW_MS)) {
          const posted = await deps.delivery.postedMessages(teamId, p.receipt_id, tx);
          await repo.saveMessages(tx, p.id, teamId, posted.messages);
        }
        pollId = await repo.pollOfMessage(tx, teamId, e.item.channel, e.item.ts);
        if (pollId === undefined) return null;
      }
      const p = await repo.forVote(tx, pollId);
      if (!p || p.deleted_at || p.closed_at) return null;
      const ts =
        e.event_ts && /^\d{1,12}(\.\d{1,6})?$/.test(e.event_ts) ? e.event_ts : (now() / 1000).toFixed(6);
      const at = Number(ts) * 1000;
      if (at >= Date.parse(p.expires_at)) return null;
      // A reaction from before the poll was posted, or from the future, is not one Slack saw on it.
      if (at < Date.parse(p.post_at) - CLOCK_SKEW_MS || at > now() + CLOCK_SKEW_MS) return null;
      const option = p.options.findIndex((o) => canonicalEmoji(o.emoji_code) === canonicalEmoji(e.reaction));
      if (option < 0) return null;
      // Only the workspace's people vote: not a bot, nor an id it does not know (another workspace's member).
      if (!(await repo.isPerson(tx, teamId, e.user))) return null;
      // Slack does not promise events in order: each is applied by its time, so the outcome is the same.
      const changed = await repo.react(tx, { pollId, teamId, memberId: e.user, option, present: added, ts });
      return changed ? pollId : null;
    },
  };
};
export type PollsService = ReturnType<typeof pollsService>;
