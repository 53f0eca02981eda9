import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export type PaceKey = { key: string; perMinute: number };

/**
 * The send budget of a workspace, kept in the database so every worker process shares it (GCRA: each key holds
 * the theoretical arrival time of its next call). `reserve` takes the next slot of every key at once and answers
 * when the call may go; `pushBack` moves a key's next slot past a Retry-After, for every process.
 */
export const pacing = (db: Db) => ({
  /** Reserves one call on each key; resolves to the epoch ms at which the call may go (now or later). */
  async reserve(teamId: string, keys: PaceKey[]): Promise<number> {
    let at = 0;
    for (const k of keys) {
      const intervalMs = 60_000 / k.perMinute;
      const res = await db.execute(sql`
        insert into delivery_pacing (team_id, key, tat)
        values (${teamId}, ${k.key}, clock_timestamp() + make_interval(secs => ${intervalMs / 1000}))
        on conflict (team_id, key) do update
          set tat = greatest(delivery_pacing.tat, clock_timestamp()) + make_interval(secs => ${intervalMs / 1000})
        returning (extract(epoch from tat) * 1000)::float8 - ${intervalMs} as slot,
                  (extract(epoch from clock_timestamp()) * 1000)::float8 as db_now`);
      const row = (res as { rows: { slot: number; db_now: number }[] }).rows[0]!;
      // The slot in this process's clock (the database's clock decides the order; the skew is subtracted).
      at = Math.max(at, Date.now() + (Number(row.slot) - Number(row.db_now)));
    }
    return at;
  },

  /** Slack said Retry-After: nobody calls with this key before then. */
  async pushBack(teamId: string, key: string, seconds: number): Promise<void> {
    await db.execute(sql`
      insert into delivery_pacing (team_id, key, tat)
      values (${teamId}, ${key}, clock_timestamp() + make_interval(secs => ${seconds}))
      on conflict (team_id, key) do update
        set tat = greatest(delivery_pacing.tat, clock_timestamp() + make_interval(secs => ${seconds}))`);
  },
});
export type Pacing = ReturnType<typeof pacing>;
