import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyHeaders } from '@flywheel/shared/delivery';
import { messageResponse } from '@flywheel/shared/http';
import { MAX_ROW_ID } from '@flywheel/shared/input';
import {
  createPollBody,
  createRecurringPollBody,
  RECURRING_POLL_TEXTS,
  recurringPollResponse,
  recurringPollsResponse,
  POLL_TEXTS,
  pollExportResponse,
  pollInfoResponse,
  pollResponse,
  pollsResponse,
  reopenPollBody,
  votersResponse,
} from '@flywheel/shared/polls';
import { currentUser } from '../../plugins/auth.ts';
import { scopedOptions, teamIdParam, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, type IdempotencyService } from '../delivery/idempotency.ts';
import type { PollsService } from './service.ts';

const tags = ['polls'];
const teamParam = z.object({ teamId: teamIdParam });
const pollParams = teamParam.extend({
  pollId: z.coerce
    .number()
    .int()
    .positive('pollId must be a poll id')
    .max(MAX_ROW_ID, 'pollId must be a poll id'),
});
const recurringParams = teamParam.extend({
  recurringId: z.coerce
    .number()
    .int()
    .positive('recurringId must be a recurring poll id')
    .max(MAX_ROW_ID, 'recurringId must be a recurring poll id'),
});
const listQuery = z.object({
  search: z.string().max(200, 'search is too long (200 characters at most)').optional(),
});

/** Polls: /poll/getpolls, getpollinfo, memberpollinfo, exportpollinfo, createpoll, closepoll, reopenpoll, deletepoll. */
export function pollsRoutes(deps: {
  polls: PollsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.post(
      '/poll/createpoll',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Create a poll in channels: instant, or scheduled (post_at 15 minutes to 30 days ahead); up to 5 options, each voted for with its emoji reaction; ends at expiry_ts (default 24 hours after it starts)',
          headers: idempotencyHeaders,
          body: createPollBody,
          response: { 201: pollResponse },
        },
      },
      async (req, reply) =>
        answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => {
          const { poll, message } = await deps.polls.create(currentUser(req).id, req.body);
          return { status: 201, body: { message, data: poll } };
        }),
    );

    r.post(
      '/poll/createrecurringpoll',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "Create a recurring poll: posted in channels Every Day or Weekly (days) at time (HH:MM, the workspace's timezone), each occurrence a poll of its own open for duration_hours",
          headers: idempotencyHeaders,
          body: createRecurringPollBody,
          response: { 201: recurringPollResponse },
        },
      },
      async (req, reply) =>
        answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => {
          const data = await deps.polls.recurring.create(currentUser(req).id, req.body);
          return { status: 201, body: { message: RECURRING_POLL_TEXTS.created, data } };
        }),
    );

    r.get(
      '/poll/getrecurringpolls/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: "The workspace's recurring polls with their next run and the polls they posted",
          params: teamParam,
          response: { 200: recurringPollsResponse },
        },
      },
      async (req) => ({ data: await deps.polls.recurring.list(req.params.teamId) }),
    );

    r.delete(
      '/poll/deleterecurringpoll/:recurringId/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Stops a recurring poll: no later poll is posted (the polls it posted stay)',
          params: recurringParams,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.polls.recurring.remove(req.params.teamId, req.params.recurringId);
        return { message: RECURRING_POLL_TEXTS.deleted };
      },
    );

    r.get(
      '/poll/getpolls/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "The workspace's polls, newest first, with their options' counts (search in question and creator)",
          params: teamParam,
          querystring: listQuery,
          response: { 200: pollsResponse },
        },
      },
      async (req) => ({ data: await deps.polls.list(req.params.teamId, req.query.search) }),
    );

    r.get(
      '/poll/getpollinfo/:pollId/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'One poll with its options and their counts',
          params: pollParams,
          response: { 200: pollInfoResponse },
        },
      },
      async (req) => ({ data: await deps.polls.info(req.params.teamId, req.params.pollId) }),
    );

    r.get(
      '/poll/memberpollinfo/:pollId/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "A poll's voters: member, e-mail, name and the option voted for (newest first); none for an anonymous poll",
          params: pollParams,
          response: { 200: votersResponse },
        },
      },
      async (req) => ({ data: await deps.polls.voters(req.params.teamId, req.params.pollId) }),
    );

    r.get(
      '/poll/exportpollinfo/:pollId/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'The rows of PollDetails.csv: email, value (the option voted for), name; an anonymous poll: each option with its votes, no email or name',
          params: pollParams,
          response: { 200: pollExportResponse },
        },
      },
      async (req) => ({ data: await deps.polls.exportRows(req.params.teamId, req.params.pollId) }),
    );

    r.post(
      '/poll/closepoll/:pollId/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Closes an open poll now: votes are refused from then on, its messages show the final results',
          params: pollParams,
          response: { 200: pollResponse },
        },
      },
      async (req) => ({
        message: POLL_TEXTS.closed,
        data: await deps.polls.close(req.params.teamId, req.params.pollId),
      }),
    );

    r.post(
      '/poll/reopenpoll/:pollId/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Opens a closed poll again until expiry_ts (default: its end, or 24 hours from now when that has passed)',
          params: pollParams,
          body: reopenPollBody.optional(),
          response: { 200: pollResponse },
        },
      },
      async (req) => ({
        message: POLL_TEXTS.reopened,
        data: await deps.polls.reopen(req.params.teamId, req.params.pollId, req.body?.expiry_ts),
      }),
    );

    r.delete(
      '/poll/deletepoll/:pollId/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Deletes a poll; its messages are removed from Slack (chat.delete) once they are all posted',
          params: pollParams,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.polls.remove(req.params.teamId, req.params.pollId);
        return { message: POLL_TEXTS.deleted };
      },
    );
  };
}
