import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from './facts-repo.ts';

export type InboxItem = { event_id: string; team_id: string; payload: unknown; attempts: number };

/** The stored JSON text: the raw body as Slack signed it when we have it, else serialised. */
const jsonText = (payload: unknown): string =>
  typeof payload === 'string' ? payload : JSON.stringify(payload);

// Writers of facts and rollups (the event drain, history pages) take turns across every process: events
// apply in arrival order and concurrent rollup upserts cannot deadlock.
const INGEST_LOCK = 72_410_001;

/** Waits for the ingest lock; it is held until the transaction ends. */
export async function ingestLock(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${INGEST_LOCK})`);
}

export const inboxRepo = (db: Db) => ({
  /** Stores a delivery once per event_id; Slack's retries of the same event are dropped here. */
  /** `payload`: the envelope, or its raw JSON text. */
  async add(e: { eventId: string; teamId: string; eventType: string; payload: unknown }): Promise<boolean> {
    const r = (await db.execute(sql`insert into slack_inbox (event_id, team_id, event_type, payload)
      values (${e.eventId}, ${e.teamId}, ${e.eventType}, ${jsonText(e.payload)}::jsonb)
      on conflict (event_id) do nothing returning 1`)) as unknown as { rows: unknown[] };
    return r.rows.length === 1;
  },
  /**
   * Stores many deliveries in one statement; returns the event_ids that were new. They keep their arrival
   * order: received_at steps by a microsecond per row (one statement has one now()).
   */
  async addMany(
    es: { eventId: string; teamId: string; eventType: string; payload: unknown }[],
  ): Promise<Set<string>> {
    const col = (f: (e: (typeof es)[number]) => string) => sql.param(es.map(f));
    const r =
      (await db.execute(sql`insert into slack_inbox (event_id, team_id, event_type, payload, received_at)
      select e.event_id, e.team_id, e.event_type, e.payload, now() + (e.n - 1) * interval '1 microsecond'
      from unnest(${col((e) => e.eventId)}::text[], ${col((e) => e.teamId)}::text[],
        ${col((e) => e.eventType)}::text[], ${col((e) => jsonText(e.payload))}::jsonb[])
        with ordinality as e(event_id, team_id, event_type, payload, n)
      on conflict (event_id) do nothing returning event_id`)) as unknown as { rows: { event_id: string }[] };
    return new Set(r.rows.map((row) => row.event_id));
  },
  async claim(tx: Tx, limit: number): Promise<InboxItem[]> {
    const r = (await tx.execute(sql`select event_id, team_id, payload, attempts from slack_inbox
      where processed_at is null order by received_at, event_id limit ${limit} for update skip locked`)) as unknown as {
      rows: InboxItem[];
    };
    return r.rows.map((row) => ({
      ...row,
      payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
    }));
  },
  async markProcessed(tx: Tx, ids: string[]): Promise<void> {
    if (ids.length)
      await tx.execute(
        sql`update slack_inbox set processed_at = now() where event_id = any(${sql.param(ids)}::text[])`,
      );
  },
  /** Counts a failed attempt; after `maxAttempts` the event is set aside (processed, with its error). */
  async markFailed(id: string, error: string, maxAttempts: number): Promise<void> {
    await db.execute(sql`update slack_inbox set attempts = attempts + 1, error = ${error.slice(0, 1000)},
      processed_at = case when attempts + 1 >= ${maxAttempts} then now() else null end where event_id = ${id}`);
  },
  async pending(): Promise<number> {
    const r = (await db.execute(
      sql`select count(*)::int as n from slack_inbox where processed_at is null`,
    )) as unknown as { rows: { n: number }[] };
    return r.rows[0]?.n ?? 0;
  },
  async purgeProcessed(before: Date): Promise<void> {
    await db.execute(
      sql`delete from slack_inbox where processed_at is not null and processed_at < ${before}`,
    );
  },
});
