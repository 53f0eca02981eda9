import { nextRun, type Recurrence } from '@flywheel/shared/clock';
import type { Db } from '../db/client.ts';
import type { Tx } from '../db/sql.ts';

/** A row whose run is due: its workspace, its run time and how late it is now. */
export type DueRow = { team_id: string; next_run_at: string | null; late_ms: number };

/** One due row's run: at its time, due or skipped (too late), and the row's next run time (null: no more). */
export type PlannedRun<R> = { row: R; at: string; status: 'due' | 'skipped'; next: string | null };

/** Rows locked and planned per transaction. */
const BATCH = 200;

/**
 * Turns due rows (schedules, recurring forms) into runs, in one transaction per batch that locks them (another
 * worker skips them): a run at most `graceMs` late is due, a later one is recorded as skipped (the product was
 * down); the next run is counted from now, so a long outage never sends a burst of missed runs. `write` stores a
 * batch's runs and next times in the same transaction. Answers how many rows were planned.
 */
export async function planDue<R extends DueRow>(deps: {
  db: Db;
  now: () => number;
  graceMs: number;
  /** Read through `tx`, the transaction that locked the rows. */
  timezoneOf: (teamId: string, tx: Tx) => Promise<string>;
  lock: (tx: Tx, limit: number, at: Date) => Promise<R[]>;
  recurrence: (row: NoInfer<R>) => Recurrence | null;
  write: (tx: Tx, runs: PlannedRun<NoInfer<R>>[]) => Promise<void>;
}): Promise<number> {
  const zones = new Map<string, string>();
  const zoneOf = async (teamId: string, tx: Tx) => {
    if (!zones.has(teamId)) zones.set(teamId, await deps.timezoneOf(teamId, tx));
    return zones.get(teamId)!;
  };
  let planned = 0;
  for (;;) {
    const n = await deps.db.transaction(async (tx) => {
      const due = await deps.lock(tx, BATCH, new Date(deps.now()));
      const runs: PlannedRun<R>[] = [];
      for (const row of due) {
        const at = new Date(row.next_run_at!).toISOString();
        const rec = deps.recurrence(row);
        const next = rec
          ? nextRun(rec, Math.max(deps.now(), Date.parse(at)), await zoneOf(row.team_id, tx))
          : null;
        runs.push({
          row,
          at,
          status: row.late_ms <= deps.graceMs ? 'due' : 'skipped',
          next: next === null ? null : new Date(next).toISOString(),
        });
      }
      await deps.write(tx, runs);
      return due.length;
    });
    planned += n;
    if (n < BATCH) return planned;
  }
}
