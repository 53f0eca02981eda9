import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationsFolder, type Database } from '../../db/client.ts';
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

const liveResponse = z.object({ status: z.literal('ok'), uptimeSeconds: z.number() });
const readyResponse = healthResponse.extend({
  migrations: z.object({
    status: z.enum(['ok', 'behind', 'unknown']),
    applied: z.number(),
    expected: z.number(),
  }),
});

/** How many migrations this build has (its journal). */
function expectedMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/**
 * Health, three ways:
 * - GET /api/health/live: the process answers (its event loop runs). An orchestrator restarts a process when this
 *   fails; a database blip does not fail it, so healthy processes are not restarted for it.
 * - GET /api/health/ready: the process can serve: the database answers a trivial query within `dbTimeoutMs`, the
 *   job queue runs, and the database has every migration of this build. A load balancer sends traffic only while
 *   this is 200 (503 otherwise).
 * - GET /api/health: database and queue, as ready without the migrations (kept for existing monitors).
 */
export function healthRoutes(deps: { database: Database; queue: Queue; role: string; dbTimeoutMs: number }) {
  const expected = expectedMigrations();
  const state = async () => {
    const db = await databaseHealth(deps.database, deps.dbTimeoutMs);
    const q = deps.queue.state();
    return {
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
  };
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    typed.get(
      '/health',
      { schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } } },
      async (_req, reply) => {
        const body = await state();
        return reply.code(body.status === 'ok' ? 200 : 503).send(body);
      },
    );
    typed.get(
      '/health/live',
      { schema: { tags: ['health'], response: { 200: liveResponse } } },
      async () => ({
        status: 'ok' as const,
        uptimeSeconds: Math.round(process.uptime()),
      }),
    );
    typed.get(
      '/health/ready',
      { schema: { tags: ['health'], response: { 200: readyResponse, 503: readyResponse } } },
      async (_req, reply) => {
        const body = await state();
        let applied = 0;
        let migrations: 'ok' | 'behind' | 'unknown' = 'unknown';
        if (body.database.status === 'ok') {
          try {
            const r = await deps.database.executeSql(
              'select count(*)::int as n from drizzle.__drizzle_migrations',
            );
            applied = Number((r.rows[0] as { n: number }).n);
            migrations = applied >= expected ? 'ok' : 'behind';
          } catch {
            migrations = 'unknown';
          }
        }
        const ready = body.status === 'ok' && migrations === 'ok';
        return reply.code(ready ? 200 : 503).send({
          ...body,
          status: ready ? 'ok' : 'degraded',
          migrations: { status: migrations, applied, expected },
        });
      },
    );
  };
}
