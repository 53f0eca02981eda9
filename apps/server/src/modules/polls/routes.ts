import type { FastifyInstance } from 'fastify';
import {
  closePoll,
  createPoll,
  createRecurringPoll,
  deletePoll,
  deleteRecurringPoll,
  exportPollInfo,
  getPollInfo,
  getPollVoters,
  getPolls,
  getRecurringPolls,
  reopenPoll,
} from '@flywheel/shared/endpoints/polls';
import { RECURRING_POLL_TEXTS, POLL_TEXTS } from '@flywheel/shared/polls';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, type IdempotencyService } from '../delivery/idempotency.ts';
import type { PollsService } from './service.ts';

/** Polls: /poll/getpolls, getpollinfo, memberpollinfo, exportpollinfo, createpoll, closepoll, reopenpoll, deletepoll. */
export function pollsRoutes(deps: {
  polls: PollsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(createPoll, async (req, reply) =>
      answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => {
        const { poll, message } = await deps.polls.create(currentUser(req).id, req.body);
        return { status: 201, body: { message, data: poll } };
      }),
    );

    route(createRecurringPoll, async (req, reply) =>
      answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => {
        const data = await deps.polls.recurring.create(currentUser(req).id, req.body);
        return { status: 201, body: { message: RECURRING_POLL_TEXTS.created, data } };
      }),
    );

    route(getRecurringPolls, async (req) => ({ data: await deps.polls.recurring.list(req.params.teamId) }));

    route(deleteRecurringPoll, async (req) => {
      await deps.polls.recurring.remove(req.params.teamId, req.params.recurringId);
      return { message: RECURRING_POLL_TEXTS.deleted };
    });

    route(getPolls, async (req) => ({ data: await deps.polls.list(req.params.teamId, req.query.search) }));

    route(getPollInfo, async (req) => ({
      data: await deps.polls.info(req.params.teamId, req.params.pollId),
    }));

    route(getPollVoters, async (req) => ({
      data: await deps.polls.voters(req.params.teamId, req.params.pollId),
    }));

    route(exportPollInfo, async (req) => ({
      data: await deps.polls.exportRows(req.params.teamId, req.params.pollId),
    }));

    route(closePoll, async (req) => ({
      message: POLL_TEXTS.closed,
      data: await deps.polls.close(req.params.teamId, req.params.pollId),
    }));

    route(reopenPoll, async (req) => ({
      message: POLL_TEXTS.reopened,
      data: await deps.polls.reopen(req.params.teamId, req.params.pollId, req.body?.expiry_ts),
    }));

    route(deletePoll, async (req) => {
      await deps.polls.remove(req.params.teamId, req.params.pollId);
      return { message: POLL_TEXTS.deleted };
    });
  };
}
