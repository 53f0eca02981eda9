import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

const sameToken = (given: string, expected: string) => {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
};

/**
 * GET /metrics in Prometheus' text format, for `Authorization: Bearer <METRICS_TOKEN>` only. Without METRICS_TOKEN
 * it answers 404: metrics name workspaces and their volumes.
 */
export function metricsRoutes(deps: { metrics: Metrics; token: string | undefined }) {
  return async (app: FastifyInstance) => {
    const { token } = deps;
    app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
      // Off: a plain 404 (not the web app's page, which any other unknown path gets).
      if (!token) {
        return reply
          .code(404)
          .send({ statusCode: 404, code: 'NOT_FOUND', message: 'Metrics are off (METRICS_TOKEN)' });
      }
      const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!given || !sameToken(given, token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .send({ statusCode: 401, code: 'UNAUTHORIZED', message: 'A valid metrics token is required' });
      }
      return reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
    });
  };
}
