import crypto from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { MAX_LEAD_MS, MIN_LEAD_MS } from '@flywheel/shared/clock';
import {
  canonicalEmoji,
  defaultPollEnd,
  POLL_BUTTON_MAX_OPTIONS,
  POLL_MAX_DURATION_MS,
  POLL_OPTION_MAX,
  POLL_TEXTS,
  POLL_VOTE_ACTION,
  pollBallotOf,
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
import { ADD_BLOCK, ADD_INPUT, addOptionModal, buttonPollMessage, pollText } from './render.ts';
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

/** A button pressed on a poll message (block_actions, as the interactivity listener reads it). */
export type PollButtonPayload = {
  team: { id: string };
  user: { id: string };
  trigger_id: string;
  channel?: { id: string } | null;
  container?: { channel_id?: string } | null;
  actions: { action_id: string; value?: string }[];
};
/** The "Add an option" modal submitted (view_submission). */
export type PollAddPayload = {
  team: { id: string } | null;
  user: { id: string; team_id?: string };
  view: {
    private_metadata?: string;
    state: { values: Record<string, Record<string, { value?: string | null }>> };
  };
};

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
  /** The workspace's bot client (button polls: views.open and chat.postEphemeral; 2.5 s, no retries). */
  botClient?: (teamId: string) => Promise<WebClient>;
  /**
   * The server's secret for anonymous voters (derived from SECRETS_KEY): each poll's key is an HMAC of it
   * with the poll's id, and a voter is stored as the HMAC of their member id with that key.
   */
  voterKey?: Buffer;
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
    const voters = await repo.voterCounts(records.map((p) => p.id));
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
        voting: p.voting,
        anonymous: p.ballot?.anonymous ?? false,
        multiple: p.ballot?.multiple ?? false,
        max_choices: p.ballot?.max_choices ?? null,
        allow_add: p.ballot?.allow_add ?? false,
        results: p.ballot?.results ?? 'live',
        closed: p.closed_at !== null,
        voter_count: voters.get(p.id) ?? 0,
      };
    });
  }

  /** A button poll's message as it is now (the counts read from the database). */
  async function buttonContent(p: PollRecord, tz: string, closed = p.closed_at !== null) {
    const [counts, voters] = await Promise.all([repo.counts([p.id]), repo.voterCounts([p.id])]);
    return buttonPollMessage({
      id: p.id,
      question: p.question,
      options: p.options,
      ballot: p.ballot!,
      counts: counts.get(p.id) ?? new Map(),
      voters: voters.get(p.id) ?? 0,
      expiresAt: Date.parse(p.expires_at),
      closed,
      tz,
    });
  }

  /** How a voter is stored: the member id (named poll), or a keyed hash of it no one can read back (anonymous). */
  function voterOf(p: PollRecord, memberId: string): string {
    if (!p.ballot?.anonymous) return memberId;
    if (!deps.voterKey) throw new Error('anonymous polls need the voter key');
    const pollKey = crypto.createHmac('sha256', deps.voterKey).update(`poll:${p.id}`).digest();
    return `h:${crypto.createHmac('sha256', pollKey).update(memberId).digest('base64url')}`;
  }

  /** Tells one member something under the poll (chat.postEphemeral); a failure is logged, never thrown. */
  async function tell(
    teamId: string,
    channel: string | undefined,
    user: string,
    text: string,
  ): Promise<void> {
    if (!channel || !deps.botClient) return;
    try {
      const client = await deps.botClient(teamId);
      await client.chat.postEphemeral({ channel, user, text });
    } catch (err) {
      deps.logger.warn({ err, teamId }, 'poll notice (ephemeral) not shown');
    }
  }

  /** Whether votes are taken now: posted, not closed, before its end. */
  const openForVotes = (p: PollRecord) =>
    p.receipt_id !== null && p.closed_at === null && Date.parse(p.expires_at) > now();

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
    const content =
      p.voting === 'buttons'
        ? await buttonContent(p, tz, false)
        : {
            text: pollText({
              question: p.question,
              options: p.options,
              counts: new Map(),
              expiresAt: Date.parse(p.expires_at),
              closed: false,
              tz,
            }),
          };
    const receipt = await deps.delivery.send({
      teamId: p.team_id,
      userId,
      actionType: 'Poll',
      sender: p.sender,
      adminUser: p.admin_user,
      ...content,
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
    const content =
      p.voting === 'buttons'
        ? await buttonContent(p, tz)
        : {
            text: pollText({
              question: p.question,
              options: p.options,
              counts: counts.get(p.id) ?? new Map(),
              expiresAt: Date.parse(p.expires_at),
              closed: p.closed_at !== null,
              tz,
            }),
          };
    for (const m of messages)
      await deps.delivery.editPosted(p.team_id, {
        sender: p.sender,
        adminUser: p.admin_user,
        channel: m.channel,
        ts: m.ts,
        ...content,
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
        voting: b.voting,
        ballot: pollBallotOf(b),
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

    /** Who voted for what; an anonymous poll has no voters to show (its votes are counts only). */
    async voters(teamId: string, id: number): Promise<Voter[]> {
      const p = await found(teamId, id);
      if (p.ballot?.anonymous) return [];
      const rows = p.voting === 'buttons' ? await repo.choiceVoters(p.id) : await repo.voters(p.id);
      return rows.map((v) => ({
        user_id: v.member_id,
        email: v.email,
        name: v.name,
        value: p.options[v.option]?.value ?? '',
        emoji: p.options[v.option]?.emoji ?? '',
        voted_at: new Date(v.voted_at).toISOString(),
      }));
    },

    /**
     * The rows of PollDetails.csv: email, value (the option voted for), name; an anonymous poll's: each option
     * with its count, no email and no name.
     */
    async exportRows(
      teamId: string,
      id: number,
    ): Promise<{ email: string; value: string; name: string; votes?: number }[]> {
      const p = await found(teamId, id);
      if (p.ballot?.anonymous) {
        const counts = (await repo.counts([p.id])).get(p.id) ?? new Map<number, number>();
        return p.options.map((o, i) => ({ email: '', value: o.value, name: '', votes: counts.get(i) ?? 0 }));
      }
      return (await this.voters(teamId, id)).map((v) => ({ email: v.email, value: v.value, name: v.name }));
    },

    /** Closes an open poll now: its messages show the final results (as at its end). */
    async close(teamId: string, id: number): Promise<Poll> {
      const p = await found(teamId, id);
      if (p.receipt_id === null)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          'pollId: a scheduled poll is not posted yet; delete it instead',
        );
      if (!(await repo.closeEarly(teamId, id, now())))
        throw new AppError('VALIDATION_ERROR', 400, 'pollId: the poll is closed already');
      await this.closeDue(id);
      return this.info(teamId, id);
    },

    /** Opens a closed poll again, until `expiry_ts` (default: its end, or 24 hours from now when that has passed). */
    async reopen(teamId: string, id: number, expiry?: string | null): Promise<Poll> {
      const p = await found(teamId, id);
      if (p.closed_at === null || p.receipt_id === null)
        throw new AppError('VALIDATION_ERROR', 400, 'pollId: the poll is not closed');
      const t = now();
      const end = expiry ? Date.parse(expiry) : Math.max(Date.parse(p.expires_at), defaultPollEnd(t));
      if (end <= t) throw new AppError('VALIDATION_ERROR', 400, `expiry_ts: ${POLL_TEXTS.endAfterStart}`);
      if (end > t + POLL_MAX_DURATION_MS)
        throw new AppError('VALIDATION_ERROR', 400, `expiry_ts: ${POLL_TEXTS.endTooFar}`);
      if (!(await repo.reopen(teamId, id, end)))
        throw new AppError('VALIDATION_ERROR', 400, 'pollId: the poll is not closed');
      await deps.jobs.closeAt(id, end);
      await deps.jobs.refresh(id);
      return this.info(teamId, id);
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
     * A vote button pressed (block_actions). In one transaction with the poll's row locked (so two workers
     * apply a poll's votes one after another, and the database's key keeps one row per voter and option): a
     * chosen option pressed again is withdrawn; single choice moves the vote; multiple choice adds it unless the
     * limit is reached. Refusals (closed, not a member here, over the limit) are told to the member alone.
     * Answers what happened; the messages are brought up to date by the coalesced refresh job.
     */
    async buttonVote(
      payload: PollButtonPayload,
    ): Promise<'added' | 'moved' | 'withdrawn' | 'limit' | 'closed' | 'refused' | 'ignored'> {
      const action = payload.actions[0];
      const m = /^(\d{1,9}):(\d{1,2})$/.exec(action?.value ?? '');
      const option = Number(action?.action_id.slice(POLL_VOTE_ACTION.length));
      if (!m || Number(m[2]) !== option) return 'ignored';
      const pollId = Number(m[1]);
      const teamId = payload.team.id;
      const member = payload.user.id;
      const channel = payload.channel?.id ?? payload.container?.channel_id ?? undefined;
      let limit = 0;
      const outcome = await deps.db.transaction(async (tx) => {
        const p = await repo.lockForVote(tx, pollId);
        if (!p || p.team_id !== teamId || p.deleted_at || p.voting !== 'buttons') return 'ignored' as const;
        if (option >= p.options.length) return 'ignored' as const;
        // A valid signature says Slack sent it, not that this person may vote: a person of this workspace.
        if (!(await repo.isPerson(tx, teamId, member))) return 'refused' as const;
        if (!openForVotes(p)) return 'closed' as const;
        const voter = voterOf(p, member);
        const chosen = await repo.choicesOf(tx, p.id, voter);
        const at = p.ballot!.anonymous ? null : now();
        if (chosen.includes(option)) {
          await repo.unchoose(tx, p.id, voter, option);
          return 'withdrawn' as const;
        }
        if (!p.ballot!.multiple) {
          await repo.unchoose(tx, p.id, voter);
          await repo.choose(tx, p.id, voter, option, at);
          return chosen.length ? ('moved' as const) : ('added' as const);
        }
        limit = p.ballot!.max_choices ?? 0;
        if (limit && chosen.length >= limit) return 'limit' as const;
        await repo.choose(tx, p.id, voter, option, at);
        return 'added' as const;
      });
      if (outcome === 'added' || outcome === 'moved' || outcome === 'withdrawn')
        await deps.jobs.refresh(pollId);
      else if (outcome === 'closed') await tell(teamId, channel, member, POLL_TEXTS.votingClosed);
      else if (outcome === 'refused') await tell(teamId, channel, member, POLL_TEXTS.notMember);
      else if (outcome === 'limit') await tell(teamId, channel, member, POLL_TEXTS.choiceLimit(limit));
      return outcome;
    },

    /** "Add an option" pressed: opens the modal with one text input (views.open with the trigger_id). */
    async openAddOption(
      payload: PollButtonPayload,
    ): Promise<'opened' | 'refused' | 'closed' | 'full' | 'ignored'> {
      const pollId = Number(payload.actions[0]?.value);
      const teamId = payload.team.id;
      const member = payload.user.id;
      const channel = payload.channel?.id ?? payload.container?.channel_id ?? undefined;
      const p = Number.isSafeInteger(pollId) && pollId > 0 ? await repo.find(teamId, pollId) : undefined;
      if (!p || p.voting !== 'buttons' || !p.ballot?.allow_add) return 'ignored';
      if (!(await repo.isPerson(deps.db, teamId, member))) {
        await tell(teamId, channel, member, POLL_TEXTS.notMember);
        return 'refused';
      }
      if (!openForVotes(p)) {
        await tell(teamId, channel, member, POLL_TEXTS.votingClosed);
        return 'closed';
      }
      if (p.options.length >= POLL_BUTTON_MAX_OPTIONS) {
        await tell(teamId, channel, member, POLL_TEXTS.optionsFull);
        return 'full';
      }
      const view = addOptionModal(p.id);
      try {
        if (!deps.botClient) throw new Error('no Slack client');
        await (await deps.botClient(teamId)).views.open({ trigger_id: payload.trigger_id, view });
        return 'opened';
      } catch (err) {
        deps.logger.warn({ err, teamId, poll: p.id }, 'could not open the add-option modal');
        return 'ignored';
      }
    },

    /**
     * The add-option modal submitted: the text (trimmed, not a copy of an option) is appended to the poll's
     * options (up to 10) in a transaction with the poll locked; the message then shows its button. Problems
     * go back to the modal under the input.
     */
    async addOption(
      payload: PollAddPayload,
    ): Promise<{ response_action: 'errors'; errors: Record<string, string> } | undefined> {
      const teamId = payload.team?.id ?? payload.user.team_id ?? '';
      let pollId = 0;
      try {
        pollId = Number((JSON.parse(payload.view.private_metadata ?? '{}') as { poll?: unknown }).poll);
      } catch {
        pollId = 0;
      }
      const error = (text: string) => ({ response_action: 'errors' as const, errors: { [ADD_BLOCK]: text } });
      const value = (payload.view.state.values[ADD_BLOCK]?.[ADD_INPUT]?.value ?? '')
        .replace(/\s+/g, ' ')
        .trim();
      if (!value) return error(POLL_TEXTS.optionEmpty);
      if (value.length > POLL_OPTION_MAX)
        return error(`An option can hold at most ${POLL_OPTION_MAX} characters`);
      const answer = await deps.db.transaction(async (tx) => {
        const p = Number.isSafeInteger(pollId) && pollId > 0 ? await repo.lockForVote(tx, pollId) : undefined;
        if (!p || p.team_id !== teamId || p.deleted_at || p.voting !== 'buttons' || !p.ballot?.allow_add)
          return error(POLL_TEXTS.votingClosed);
        if (!(await repo.isPerson(tx, teamId, payload.user.id))) return error(POLL_TEXTS.notMember);
        if (!openForVotes(p)) return error(POLL_TEXTS.votingClosed);
        if (p.options.length >= POLL_BUTTON_MAX_OPTIONS) return error(POLL_TEXTS.optionsFull);
        if (p.options.some((o) => o.value.toLowerCase() === value.toLowerCase()))
          return error(POLL_TEXTS.optionTaken);
        await repo.setOptions(tx, p.id, [...p.options, { emoji: '', emoji_code: '', value }]);
        return undefined;
      });
      if (!answer) await deps.jobs.refresh(pollId);
      return answer;
    },

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
      if (!p || p.deleted_at || p.closed_at || p.voting === 'buttons') return null;
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
