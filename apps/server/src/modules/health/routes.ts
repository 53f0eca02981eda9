import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Queue } from '../../jobs/queue.ts';

const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  role: z.string(),
  database: z.object({ status: z.enum(['ok', 'down']), kind: z.string(), latencyMs: z.number().optional() }),
  queue: z.object({ status: z.enum(['ok', 'down']), workers: z.number() }),
  uptimeSeconds: z.number(),
});

/** GET /api/health: database and queue state; 503 when either is down. */
export function healthRoutes(deps: { database: Database; queue: Queue; role: string }) {
  return async (app: FastifyInstance) => {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        '/health',
        { schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } } },
        async (_req, reply) => {
          const t0 = performance.now();
          const dbUp = await deps.database.ping().then(
            () => true,
            () => false,
          );
          const q = deps.queue.state();
          const body = {
            status: dbUp && q.started ? ('ok' as const) : ('degraded' as const),
            role: deps.role,
            database: {
              status: dbUp ? ('ok' as const) : ('down' as const),
              kind: deps.database.kind,
              ...(dbUp ? { latencyMs: Math.round((performance.now() - t0) * 10) / 10 } : {}),
            },
            queue: { status: q.started ? ('ok' as const) : ('down' as const), workers: q.workers },
            uptimeSeconds: Math.round(process.uptime()),
          };
          return reply.code(body.status === 'ok' ? 200 : 503).send(body);
        },
      );
  };
}
