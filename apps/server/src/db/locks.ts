import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './sql.ts';

/**
 * Every named transaction-level advisory lock. A lock is held until its transaction ends.
 * - `ingest`: writers of facts and rollups (the event drain, history pages) take turns across every process,
 *   so events apply in arrival order and concurrent rollup upserts cannot deadlock.
 * - `homeTasks(teamId)`: changes of one workspace's task board apply one at a time (positions stay dense).
 * - `sends(teamId)`: a workspace's new receipts are written one batch at a time, so the daily budget and the
 *   per-member marks are read and spent by one sender at once.
 * - `levels(teamId)`: a workspace's engagement levels are recomputed by one process at once (each change is
 *   recorded once).
 */
export const LOCKS = {
  ingest: sql`${72_410_001}`,
  homeTasks: (teamId: string) => sql`hashtext(${`home_tasks:${teamId}`})`,
  sends: (teamId: string) => sql`hashtext(${`sends:${teamId}`})`,
  levels: (teamId: string) => sql`hashtext(${`levels:${teamId}`})`,
} as const;

/** Waits for a named lock (see LOCKS); it is held until the transaction ends. */
export async function xactLock(tx: Tx, lock: SQL): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lock})`);
}
