import type { Database } from '../../db/client.ts';

export type DatabaseHealth = { ok: true; latencyMs: number } | { ok: false; reason: string };

/**
 * Whether the database answers a trivial query within `timeoutMs`. A database that does not answer is down, not
 * slow: a process whose statements all wait (a transaction that waits for itself on PGlite, a pool whose every
 * connection is held) must not look healthy. The query itself is left to finish; only the answer stops waiting.
 */
export async function databaseHealth(database: Database, timeoutMs: number): Promise<DatabaseHealth> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<DatabaseHealth>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `no answer to a trivial query within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const answered = database.ping().then(
    (): DatabaseHealth => ({ ok: true, latencyMs: Math.round((performance.now() - t0) * 10) / 10 }),
    (err: unknown): DatabaseHealth => ({
      ok: false,
      reason: err instanceof Error ? err.message : String(err),
    }),
  );
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
