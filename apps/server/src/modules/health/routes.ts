import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Queue } from '../../jobs/queue.ts';
import { databaseHealth } from './check.ts';

const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  role: z.string(),
  database: z.object({
    status: z.enum(['ok', 'down']),
    kind: z.string(),
    latencyMs: z.number().optional(),
    reason: z.string().optional(),
  }),
  queue: z.object({ status: z.enum(['ok', 'down']), workers: z.number() }),
  uptimeSeconds: z.number(),
});

/**
 * GET /api/health: database and queue state; 503 when either is down, and when the database does not answer a
 * trivial query within `dbTimeoutMs` (a stuck database is down, not healthy).
 */
export function healthRoutes(deps: { database: Database; queue: Queue; role: string; dbTimeoutMs: number }) {
  return async (app: FastifyInstance) => {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        '/health',
        { schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } } },
        async (_req, reply) => {
          const db = await databaseHealth(deps.database, deps.dbTimeoutMs);
          const q = deps.queue.state();
          const body = {
            status: db.ok && q.started ? ('ok' as const) : ('degraded' as const),
            role: deps.role,
            database: {
              status: db.ok ? ('ok' as const) : ('down' as const),
              kind: deps.database.kind,
              ...(db.ok ? { latencyMs: db.latencyMs } : { reason: db.reason }),
            },
            queue: { status: q.started ? ('ok' as const) : ('down' as const), workers: q.workers },
            uptimeSeconds: Math.round(process.uptime()),
          };
          return reply.code(body.status === 'ok' ? 200 : 503).send(body);
        },
      );
  };
}
