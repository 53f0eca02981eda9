import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { verifySlackRequest } from '../../slack/verify.ts';
import { slackIntake } from './intake.ts';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * POST /slack/events and /slack/interactivity (mounted at the root, outside /api/v0). The signature is checked
 * on the raw body before anything else; then the intake (intake.ts, shared with Socket Mode) stores events
 * (once per event_id) before the answer, and hands interactivity payloads to the first matching module listener.
 */
export function intakeRoutes(ctx: AppContext) {
  const intake = slackIntake(ctx);
  const signingSecret = () => ctx.slack.signingSecret;
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    const verified = (req: FastifyRequest): string => {
      const raw = typeof req.body === 'string' ? req.body : '';
      verifySlackRequest({
        signingSecret: signingSecret(),
        timestamp: header(req, 'x-slack-request-timestamp'),
        signature: header(req, 'x-slack-signature'),
        rawBody: raw,
      });
      return raw;
    };

    app.post('/slack/events', async (req, reply) => {
      const raw = verified(req);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        throw new AppError('VALIDATION_ERROR', 400, 'The request body is not valid JSON');
      }
      const answer = await intake.event(body, raw, req.log);
      return answer ?? reply.code(200).send();
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
      const answer = await intake.interaction(payload);
      return answer === undefined ? reply.code(200).send() : answer;
    });
  };
}
