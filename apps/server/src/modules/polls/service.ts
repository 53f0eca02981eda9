import { MAX_LEAD_MS, MIN_LEAD_MS } from '@flywheel/shared/clock';
import {
  defaultPollEnd,
  POLL_MAX_DURATION_MS,
  POLL_TEXTS,
  pollBallotOf,
  type createPollBody,
  type Poll,
} from '@flywheel/shared/polls';
import type { z } from 'zod';
import { AppError, notFound } from '../../lib/errors.ts';
import { recurringPolls } from './recurring.ts';
import { pollsCore, type PollsDeps } from './core.ts';
import { pollHistory } from './history.ts';
import { pollListeners } from './listeners.ts';
import { pollRunner } from './runner.ts';

export type { PollJobs, PollsDeps } from './core.ts';
export type { PollAddPayload, PollButtonPayload, ReactionEvent } from './listeners.ts';

type CreateBody = z.output<typeof createPollBody>;

/**
 * Polls: created in the dashboard, posted in channels through the delivery engine (one receipt), voted on with
 * the options' emoji reactions (one vote per member, kept by the events listener), shown live in Slack
 * (coalesced chat.update through delivery) and closed once at their end with the final results.
 */
export const pollsService = (deps: PollsDeps) => {
  const core = pollsCore(deps);
  const { repo, now, found, post, toPolls } = core;
  const history = pollHistory(core);
  const runner = pollRunner(core);

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

    ...history,
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
      await runner.closeDue(id);
      return history.info(teamId, id);
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
      return history.info(teamId, id);
    },

    /** Deletes a poll now; its Slack messages are removed by a job (after its delivery has posted them). */
    async remove(teamId: string, id: number): Promise<void> {
      if (!(await repo.markDeleted(teamId, id, now()))) throw notFound('No such poll in this workspace');
      await deps.jobs.remove(id);
    },
    ...runner,
    ...pollListeners(core),
  };
};
export type PollsService = ReturnType<typeof pollsService>;
