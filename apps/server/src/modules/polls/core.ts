import crypto from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Poll } from '@flywheel/shared/polls';
import { truncateText } from '@flywheel/shared/text';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { notFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Emit } from '../webhooks/service.ts';
import type { AudienceService } from '../audience/service.ts';
import type { DeliveryService } from '../delivery/service.ts';
import { buttonPollMessage, pollText } from './render.ts';
import { pollsRepo, type PollRecord } from './repo.ts';
import { pollRunnerRepo } from './runner-repo.ts';
import { pollVotesRepo } from './votes-repo.ts';

/*
 * What the polls service's parts share (service.ts puts them together): its dependencies, the repository, the
 * clock, and how a poll is shown, posted, settled and told about.
 */

/** What the service asks the job queue for (polls/module.ts builds it). */
export type PollJobs = {
  /** Brings the poll's Slack messages up to date soon (coalesced: at most one update per poll every few s). */
  refresh(pollId: number, delayMs?: number): Promise<void>;
  /** Closes the poll at its end. */
  closeAt(pollId: number, at: number): Promise<void>;
  /** Removes a deleted poll's messages from Slack. */
  remove(pollId: number): Promise<void>;
};

/** How long a worker holds a poll it posts, closes or removes. */
export const LEASE_MS = 2 * 60_000;
/** A poll's messages not recorded yet are looked up at a reaction only this long after it was posted. */
export const SETTLE_WINDOW_MS = 60 * 60_000;
/** While its delivery is still posting, the poll's messages are looked at again after this. */
export const SETTLE_RETRY_MS = 2_000;
/** How far Slack's clock (an event's time) may be from ours. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** The question on one line, at most 60 characters (never half of an emoji: see truncateText). */
const snippet = (text: string) => truncateText(text.replace(/\s+/g, ' ').trim(), 60, '...');

export type PollsDeps = {
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
};

export const pollsCore = (deps: PollsDeps) => {
  const repo = pollsRepo(deps.db);
  const votesRepo = pollVotesRepo(deps.db);
  const runnerRepo = pollRunnerRepo(deps.db);
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
    const counts = (await votesRepo.counts([id])).get(id) ?? new Map<number, number>();
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
    const counts = await votesRepo.counts(records.map((p) => p.id));
    const voters = await votesRepo.voterCounts(records.map((p) => p.id));
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
    const [counts, voters] = await Promise.all([votesRepo.counts([p.id]), votesRepo.voterCounts([p.id])]);
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
    await runnerRepo.setReceipt(p.id, receipt.receipt_id);
    await deps.jobs.refresh(p.id, SETTLE_RETRY_MS);
    await deps.jobs.closeAt(p.id, Date.parse(p.expires_at));
    return receipt.receipt_id;
  }

  /** Records the messages the poll's delivery has posted so far; answers whether some are still to come. */
  async function settle(p: PollRecord, runner: Tx = deps.db): Promise<boolean> {
    if (p.receipt_id === null) return false;
    const posted = await deps.delivery.postedMessages(p.team_id, p.receipt_id);
    await runnerRepo.saveMessages(runner, p.id, p.team_id, posted.messages);
    return posted.open > 0;
  }

  /** Puts the poll's current (or final) results in each of its Slack messages. */
  async function showResults(p: PollRecord): Promise<void> {
    const [tz, counts, messages] = await Promise.all([
      deps.timezoneOf(p.team_id),
      votesRepo.counts([p.id]),
      runnerRepo.messages(p.id),
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
    deps,
    repo,
    votesRepo,
    runnerRepo,
    now,
    emitClosed,
    toPolls,
    voterOf,
    tell,
    openForVotes,
    found,
    post,
    settle,
    showResults,
  };
};
export type PollsCore = ReturnType<typeof pollsCore>;
