import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { verifySlackRequest } from '../../slack/verify.ts';
import { drainJob } from './jobs.ts';
import { dispatchInteractivity } from './listeners.ts';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Asks a worker to apply stored events soon, coalescing the pokes of a burst into one drain job. */
function drainPoker(ctx: AppContext) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      ctx.queue
        .send(drainJob, {})
        .catch((err: unknown) => ctx.logger.error({ err }, 'could not queue the event drain'));
    }, 50).unref();
  };
}

/** Whether a team is connected; a yes is remembered for 30 s (every event delivery asks). */
function knownTeams(ctx: AppContext) {
  const known = new Map<string, number>();
  return async (teamId: string) => {
    const seen = known.get(teamId);
    if (seen && Date.now() - seen < 30_000) return true;
    const ws = await ctx.services.workspaces.find(teamId);
    if (ws) known.set(teamId, Date.now());
    return Boolean(ws);
  };
}

/**
 * POST /slack/events and /slack/interactivity (mounted at the root, outside /api/v0). The signature is checked
 * on the raw body before anything else; events are stored (once per event_id) and acknowledged at once, then
 * applied from the queue; interactivity payloads go to the first matching module listener.
 */
export function intakeRoutes(ctx: AppContext) {
  const deps = {
    signingSecret: () => ctx.slack.signingSecret,
    events: ctx.services.events,
    isKnownTeam: knownTeams(ctx),
    onStored: drainPoker(ctx),
    interactivity: ctx.modules.flatMap((m) => m.interactivity ?? []),
  };
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    const verified = (req: FastifyRequest): string => {
      const raw = typeof req.body === 'string' ? req.body : '';
      verifySlackRequest({
        signingSecret: deps.signingSecret(),
        timestamp: header(req, 'x-slack-request-timestamp'),
        signature: header(req, 'x-slack-signature'),
        rawBody: raw,
      });
      return raw;
    };

    app.post('/slack/events', async (req, reply) => {
      const raw = verified(req);
      let body: {
        type?: string;
        challenge?: string;
        event_id?: string;
        team_id?: string;
        event?: { type?: string };
      };
      try {
        body = JSON.parse(raw);
      } catch {
        throw new AppError('VALIDATION_ERROR', 400, 'The request body is not valid JSON');
      }
      if (!body || typeof body !== 'object')
        throw new AppError('VALIDATION_ERROR', 400, 'Expected a JSON object');
      if (body.type === 'url_verification') return { challenge: String(body.challenge ?? '') };
      if (body.type === 'app_rate_limited') {
        req.log.warn({ teamId: body.team_id }, 'Slack is rate-limiting event deliveries for this workspace');
        return reply.code(200).send();
      }
      if (body.type !== 'event_callback')
        throw new AppError('VALIDATION_ERROR', 400, `Unsupported envelope type: ${String(body.type)}`);
      if (!body.event_id || !body.team_id || !body.event?.type) {
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          'An event_callback needs event_id, team_id and event.type',
        );
      }
      if (await deps.isKnownTeam(body.team_id)) {
        const fresh = await deps.events.store({
          eventId: body.event_id,
          teamId: body.team_id,
          eventType: body.event.type,
          // The verified raw body: stored as is, not serialised again.
          payload: raw,
        });
        if (fresh) deps.onStored();
      } else {
        req.log.info({ teamId: body.team_id }, 'event for a workspace that is not connected: dropped');
      }
      return reply.code(200).send();
    });

    app.post('/slack/interactivity', async (req, reply) => {
      const raw = verified(req);
      const form = new URLSearchParams(raw);
      let payload: unknown;
      try {
        payload = JSON.parse(form.get('payload') ?? '');
      } catch {
        throw new AppError('VALIDATION_ERROR', 400, 'Expected a form field named payload holding JSON');
      }
      if (!payload || typeof payload !== 'object') return reply.code(200).send();
      const answer = await dispatchInteractivity(deps.interactivity, payload, ctx);
      return answer === undefined ? reply.code(200).send() : answer;
    });
  };
}
