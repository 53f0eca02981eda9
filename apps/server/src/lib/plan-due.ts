import { nextRun, type Recurrence } from '@flywheel/shared/clock';
import type { Db } from '../db/client.ts';
import { sql } from 'drizzle-orm';
import { textArray, typedRows, type Tx } from '../db/sql.ts';
import { dueAttempts } from '../jobs/table.ts';
import type { Logger } from './logger.ts';

/** A row whose run is due: its workspace, its run time and how late it is now. */
export type DueRow = { team_id: string; next_run_at: string | null; late_ms: number };

/** One due row's run: at its time, due or skipped (too late), and the row's next run time (null: no more). */
export type PlannedRun<R> = { row: R; at: string; status: 'due' | 'skipped'; next: string | null };

/** Rows locked and planned per transaction. */
const BATCH = 200;

/**
 * Plannings of one run begun and never finished before it is recorded as skipped: the first, and one more after a
 * restart (the product may have been killed for a reason of its own).
 */
export const MAX_PLAN_ATTEMPTS = 2;

/**
 * Turns due rows (schedules, recurring forms) into runs, in one transaction per batch that locks them (another
 * worker skips them): a run at most `graceMs` late is due, a later one is recorded as skipped (the product was
 * down); the next run is counted from now, so a long outage never sends a burst of missed runs. `write` stores a
 * batch's runs and next times in the same transaction. Answers how many rows were planned.
 *
 * Each batch is first claimed in a short transaction of its own that counts an attempt per run (due_attempts);
 * the planning's transaction removes them. A run whose planning began twice and never finished (the process was
 * killed, or stopped answering, while planning it) is recorded as skipped with a log line: a process that comes
 * back never wedges on the same due work again.
 */
export async function planDue<R extends DueRow & { id: number }>(deps: {
  db: Db;
  /** The due_attempts kind of these runs (e.g. `schedule`, `form`). */
  kind: string;
  now: () => number;
  graceMs: number;
  /** Read through `tx`, the transaction that locked the rows. */
  timezoneOf: (teamId: string, tx: Tx) => Promise<string>;
  lock: (tx: Tx, limit: number, at: Date) => Promise<R[]>;
  recurrence: (row: NoInfer<R>) => Recurrence | null;
  write: (tx: Tx, runs: PlannedRun<NoInfer<R>>[]) => Promise<void>;
  logger?: Logger;
}): Promise<number> {
  const zones = new Map<string, string>();
  const zoneOf = async (teamId: string, tx: Tx) => {
    if (!zones.has(teamId)) zones.set(teamId, await deps.timezoneOf(teamId, tx));
    return zones.get(teamId)!;
  };
  const keyOf = (row: R) => `${row.id}@${new Date(row.next_run_at!).toISOString()}`;
  let planned = 0;
  for (;;) {
    // The attempt is counted and committed before the planning starts.
    const attempts = await deps.db.transaction(async (tx) => {
      const due = await deps.lock(tx, BATCH, new Date(deps.now()));
      return countAttempts(tx, deps.kind, due.map(keyOf));
    });
    if (attempts.size === 0) return planned;
    const n = await deps.db.transaction(async (tx) => {
      const due = await deps.lock(tx, BATCH, new Date(deps.now()));
      const runs: PlannedRun<R>[] = [];
      for (const row of due) {
        const at = new Date(row.next_run_at!).toISOString();
        const tried = attempts.get(keyOf(row)) ?? 1;
        const wedged = tried > MAX_PLAN_ATTEMPTS;
        if (wedged)
          deps.logger?.error(
            { kind: deps.kind, id: row.id, teamId: row.team_id, at, attempts: tried - 1 },
            'a due run whose planning never finished twice is skipped (see due_attempts)',
          );
        const rec = deps.recurrence(row);
        const next = rec
          ? nextRun(rec, Math.max(deps.now(), Date.parse(at)), await zoneOf(row.team_id, tx))
          : null;
        runs.push({
          row,
          at,
          status: !wedged && row.late_ms <= deps.graceMs ? 'due' : 'skipped',
          // A recurring row goes on (wedged or not): its next run after now.
          next: next === null ? null : new Date(next).toISOString(),
        });
      }
      await deps.write(tx, runs);
      await clearAttempts(tx, deps.kind, due.map(keyOf));
      return due.length;
    });
    planned += n;
    if (n < BATCH) return planned;
  }
}

/**
 * Counts one attempt for each key (in a short transaction of its own, committed before the work begins); answers
 * each key's attempts so far (this one included). The work's own transaction clears them (clearAttempts): a key
 * whose attempts pass MAX_PLAN_ATTEMPTS is work that began that often and never finished.
 */
export async function countAttempts(tx: Tx, kind: string, keys: string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await typedRows<{ key: string; attempts: number }>(
    tx,
    sql`insert into ${dueAttempts} (kind, key)
        select ${kind}, k from unnest(${textArray(keys)}::text[]) k
        on conflict (kind, key) do update set attempts = ${dueAttempts.attempts} + 1, updated_at = now()
        returning key, attempts`,
  );
  return new Map(rows.map((r) => [r.key, r.attempts]));
}

/** Clears these keys' attempts: their work finished (call it in the work's own transaction). */
export async function clearAttempts(tx: Tx, kind: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(
    sql`delete from ${dueAttempts} where kind = ${kind} and key = any(${textArray(keys)}::text[])`,
  );
}
