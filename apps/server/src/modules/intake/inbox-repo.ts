import { sql } from 'drizzle-orm';
import pg from 'pg';
import { cutText, storableJson, storableText } from '@flywheel/shared/text';
import type { Db } from '../../db/client.ts';
import { typedRows, type Tx } from '../../db/sql.ts';
import type { SlackEnvelope } from '../../slack/events.ts';

export type InboxItem = { event_id: string; team_id: string; payload: SlackEnvelope; attempts: number };

/** A NUL or a surrogate written as a JSON escape: what jsonb may refuse (see storableJson). */
const RISKY_ESCAPE = /\\u(0000|d[89a-f])/i;

/**
 * The stored JSON text: the raw body as Slack signed it when we have it, else serialised. jsonb holds no NUL
 * and no half of an emoji, which Slack may send in a message's text: such an event is kept without them
 * (`storableJson`) rather than refused, and lost.
 */
function jsonText(payload: unknown): string {
  if (typeof payload !== 'string') return JSON.stringify(storableJson(payload));
  if (!RISKY_ESCAPE.test(payload)) return payload;
  try {
    return JSON.stringify(storableJson(JSON.parse(payload)));
  } catch {
    return payload;
  }
}

type Delivery = { eventId: string; teamId: string; eventType: string; payload: unknown };

/**
 * One statement stores a batch of deliveries: ids, teams and types as text arrays, the payloads as one JSON
 * array (PostgreSQL parses it once; an array of jsonb literals would be escaped and unescaped element by
 * element), zipped by ROWS FROM so every function runs once. received_at steps by a microsecond per row so
 * the batch keeps its arrival order (one statement has one now()). Retries of stored events are dropped by
 * the primary key.
 */
const ADD_MANY = `insert into slack_inbox (event_id, team_id, event_type, payload, received_at)
  select e.event_id, e.team_id, e.event_type, e.payload, now() + (e.n - 1) * interval '1 microsecond'
  from rows from (unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), jsonb_array_elements($4::jsonb))
    with ordinality as e(event_id, team_id, event_type, payload, n)
  on conflict (event_id) do nothing returning event_id`;

/** The node-postgres pool behind the Drizzle client, when there is one (PGlite has none). */
const poolOf = (db: Db): pg.Pool | undefined => {
  const client: unknown = Reflect.get(db, '$client');
  return client instanceof pg.Pool ? client : undefined;
};

export const inboxRepo = (db: Db) => {
  /**
   * Stores many deliveries in one statement (see ADD_MANY); returns the event_ids that were new.
   * `payload`: the envelope, or its raw JSON text (stored as is, never serialised again).
   */
  async function addMany(es: Delivery[]): Promise<Set<string>> {
    const values = [
      es.map((e) => e.eventId),
      es.map((e) => e.teamId),
      es.map((e) => e.eventType),
      `[${es.map((e) => jsonText(e.payload)).join(',')}]`,
    ];
    const pool = poolOf(db);
    // On PostgreSQL a named statement: parsed and planned once per connection, not once per batch.
    const r = pool
      ? await pool.query<{ event_id: string }>({ name: 'flywheel_inbox_add_many', text: ADD_MANY, values })
      : {
          rows: await typedRows<{ event_id: string }>(
            db,
            sql.join(
              ADD_MANY.split(/\$(\d)/).map((part, i) =>
                i % 2 ? sql.param(values[Number(part) - 1]) : sql.raw(part),
              ),
            ),
          ),
        };
    return new Set(r.rows.map((row) => row.event_id));
  }

  return {
    addMany,
    /** Stores a delivery once per event_id; Slack's retries of the same event are dropped here. */
    async add(e: Delivery): Promise<boolean> {
      return (await addMany([e])).has(e.eventId);
    },
    /**
     * The oldest pending deliveries. Call it holding the ingest lock (`LOCKS.ingest`), which every drain
     * takes for its whole transaction: no row lock is needed (`for update` wrote a lock record per row).
     */
    async claim(tx: Tx, limit: number): Promise<InboxItem[]> {
      const rows = await typedRows<Omit<InboxItem, 'payload'> & { payload: SlackEnvelope | string }>(
        tx,
        sql`select event_id, team_id, payload, attempts from slack_inbox
      where processed_at is null order by received_at, event_id limit ${limit}`,
      );
      return rows.map((row) => ({
        ...row,
        payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as SlackEnvelope) : row.payload,
      }));
    },
    /**
     * Marks applied deliveries. The row stays (its event_id is what drops Slack's later retries) but its
     * payload goes: the new row version is ~100 bytes instead of the whole envelope, so the update (which
     * cannot be HOT: the pending index's predicate changes) writes a fraction of the WAL and the table does
     * not grow by a copy of every envelope until the housekeeping purge.
     */
    async markProcessed(tx: Tx, ids: string[]): Promise<void> {
      if (ids.length)
        await tx.execute(
          sql`update slack_inbox set processed_at = now(), payload = 'null'::jsonb
          where event_id = any(${sql.param(ids)}::text[])`,
        );
    },
    async isPending(tx: Tx, id: string): Promise<boolean> {
      const r = await typedRows(
        tx,
        sql`select 1 from slack_inbox where event_id = ${id} and processed_at is null`,
      );
      return r.length > 0;
    },
    /** Counts a failed attempt; after `maxAttempts` the event is set aside (processed, with its error). */
    async markFailed(id: string, error: string, maxAttempts: number): Promise<void> {
      await db.execute(sql`update slack_inbox set attempts = attempts + 1, error = ${storableText(cutText(error, 1000))},
      processed_at = case when attempts + 1 >= ${maxAttempts} then now() else null end where event_id = ${id}`);
    },
    async pending(): Promise<number> {
      const [r] = await typedRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from slack_inbox where processed_at is null`,
      );
      return r?.n ?? 0;
    },
    async purgeProcessed(before: Date): Promise<void> {
      await db.execute(
        sql`delete from slack_inbox where processed_at is not null and processed_at < ${before}`,
      );
    },
  };
};
