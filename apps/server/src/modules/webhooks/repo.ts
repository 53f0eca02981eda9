import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';

export type SubscriptionRow = {
  id: number;
  team_id: string;
  url: string;
  events: string[];
  secret_sealed: string;
  enabled: boolean;
  created_at: string;
  pending: number;
  failed_recently: number;
};

export type DeliveryRow = {
  id: number;
  event_id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  response_code: number | null;
  last_error: string | null;
  duration_ms: number | null;
  replay_of: number | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  finished_at: string | null;
};

/** The next delivery of a subscription's queue, with what its body is made of. */
export type QueuedDelivery = {
  id: number;
  event_id: string;
  team_id: string;
  type: string;
  data: Record<string, unknown>;
  event_created_at: string;
  created_at: string;
  attempts: number;
  due: boolean;
  next_attempt_at: string;
};

const iso = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const subscriptionColumns = sql`s.id, s.team_id, s.url, s.events, s.secret_sealed, s.enabled, ${iso('s.created_at')} as created_at,
  (select count(*)::int from webhook_deliveries d where d.subscription_id = s.id and d.status = 'pending') as pending,
  (select count(*)::int from webhook_deliveries d where d.subscription_id = s.id and d.status = 'failed'
     and d.finished_at > now() - interval '1 day') as failed_recently`;

const deliveryColumns = sql`d.id, d.event_id, e.type, d.status, d.attempts, d.response_code, d.last_error, d.duration_ms,
  d.replay_of, ${iso('d.created_at')} as created_at, ${iso('d.last_attempt_at')} as last_attempt_at,
  case when d.status = 'pending' then ${iso('d.next_attempt_at')} end as next_attempt_at,
  ${iso('d.finished_at')} as finished_at`;

export const webhooksRepo = (db: Db) => ({
  async insertSubscription(s: {
    teamId: string;
    url: string;
    events: string[];
    secretSealed: string;
    createdBy: string | null;
  }): Promise<number> {
    const [row] = await typedRows<{ id: number }>(
      db,
      sql`insert into webhook_subscriptions (team_id, url, events, secret_sealed, created_by)
        values (${s.teamId}, ${s.url}, ${JSON.stringify(s.events)}::jsonb, ${s.secretSealed}, ${s.createdBy})
        returning id`,
    );
    return row!.id;
  },

  list: (teamId: string) =>
    typedRows<SubscriptionRow>(
      db,
      sql`select ${subscriptionColumns} from webhook_subscriptions s where s.team_id = ${teamId} order by s.id desc`,
    ),

  find: (teamId: string, id: number) =>
    firstRow<SubscriptionRow>(
      db,
      sql`select ${subscriptionColumns} from webhook_subscriptions s where s.team_id = ${teamId} and s.id = ${id}`,
    ),

  async update(teamId: string, id: number, u: { enabled?: boolean; events?: string[] }): Promise<boolean> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`update webhook_subscriptions set
          enabled = coalesce(${u.enabled ?? null}::boolean, enabled),
          events = coalesce(${u.events ? JSON.stringify(u.events) : null}::jsonb, events),
          updated_at = now()
        where team_id = ${teamId} and id = ${id} returning id`,
    );
    return rows.length > 0;
  },

  async remove(teamId: string, id: number): Promise<boolean> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`delete from webhook_subscriptions where team_id = ${teamId} and id = ${id} returning id`,
    );
    return rows.length > 0;
  },

  deliveries: (subscriptionId: number, limit: number) =>
    typedRows<DeliveryRow>(
      db,
      sql`select ${deliveryColumns} from webhook_deliveries d join webhook_events e on e.id = d.event_id
        where d.subscription_id = ${subscriptionId} order by d.id desc limit ${limit}`,
    ),

  delivery: (subscriptionId: number, id: number) =>
    firstRow<DeliveryRow>(
      db,
      sql`select ${deliveryColumns} from webhook_deliveries d join webhook_events e on e.id = d.event_id
        where d.subscription_id = ${subscriptionId} and d.id = ${id}`,
    ),

  /** A replay: a new delivery of the same event at the end of the subscription's queue. */
  async replay(subscriptionId: number, deliveryId: number): Promise<number | null> {
    const [row] = await typedRows<{ id: number }>(
      db,
      sql`insert into webhook_deliveries (subscription_id, event_id, replay_of)
        select subscription_id, event_id, id from webhook_deliveries
          where subscription_id = ${subscriptionId} and id = ${deliveryId}
        returning id`,
    );
    return row?.id ?? null;
  },

  /**
   * The outbox write: the event (once per dedupe key) and one delivery per enabled subscription of the workspace
   * that asked for its type. Answers the subscriptions to wake (none when the key was seen before).
   */
  async insertEvent(
    tx: Tx,
    e: { id: string; teamId: string; type: string; data: Record<string, unknown>; dedupeKey: string | null },
  ): Promise<number[]> {
    const rows = await typedRows<{ subscription_id: number }>(
      tx,
      sql`with ev as (
          insert into webhook_events (id, team_id, type, data, dedupe_key)
          values (${e.id}, ${e.teamId}, ${e.type}, ${JSON.stringify(e.data)}::jsonb, ${e.dedupeKey})
          on conflict do nothing returning id)
        insert into webhook_deliveries (subscription_id, event_id)
          select s.id, ev.id from ev join webhook_subscriptions s
            on s.team_id = ${e.teamId} and s.enabled and s.events ? ${e.type}
          order by s.id
        returning subscription_id`,
    );
    return rows.map((r) => r.subscription_id);
  },

  /** Takes a subscription's queue for `leaseMs` (false: paused, gone, or another worker has it). */
  async claim(
    subscriptionId: number,
    leaseMs: number,
  ): Promise<{ url: string; secret_sealed: string } | undefined> {
    return firstRow(
      db,
      sql`update webhook_subscriptions set lease_until = now() + make_interval(secs => ${leaseMs / 1000})
        where id = ${subscriptionId} and enabled and (lease_until is null or lease_until < now())
        returning url, secret_sealed`,
    );
  },

  /** Extends a held lease (false: the subscription was paused or deleted meanwhile). */
  async claimRenew(subscriptionId: number, leaseMs: number): Promise<boolean> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`update webhook_subscriptions set lease_until = now() + make_interval(secs => ${leaseMs / 1000})
        where id = ${subscriptionId} and enabled returning id`,
    );
    return rows.length > 0;
  },

  async release(subscriptionId: number): Promise<void> {
    await db.execute(sql`update webhook_subscriptions set lease_until = null where id = ${subscriptionId}`);
  },

  /** The oldest pending delivery of an enabled subscription (the head of its queue), due or not. */
  head: (subscriptionId: number) =>
    firstRow<QueuedDelivery>(
      db,
      sql`select d.id, d.event_id, e.team_id, e.type, e.data, ${iso('e.created_at')} as event_created_at,
          ${iso('d.created_at')} as created_at, d.attempts, d.next_attempt_at <= now() as due,
          ${iso('d.next_attempt_at')} as next_attempt_at
        from webhook_deliveries d join webhook_events e on e.id = d.event_id
          join webhook_subscriptions s on s.id = d.subscription_id and s.enabled
        where d.subscription_id = ${subscriptionId} and d.status = 'pending'
        order by d.id limit 1`,
    ),

  /**
   * An attempt's result, on a delivery still pending: a row that stopped being pending while the request was out
   * (given up elsewhere, its event pruned) is not brought back by it.
   */
  async recordAttempt(
    id: number,
    a: {
      status: 'pending' | 'delivered' | 'failed';
      responseCode: number | null;
      error: string | null;
      durationMs: number;
      nextAttemptAt: Date | null;
    },
  ): Promise<void> {
    await db.execute(sql`update webhook_deliveries set status = ${a.status}, attempts = attempts + 1,
        response_code = ${a.responseCode}, last_error = ${a.error}, duration_ms = ${a.durationMs},
        last_attempt_at = now(),
        next_attempt_at = coalesce(${a.nextAttemptAt?.toISOString() ?? null}::timestamptz, next_attempt_at),
        finished_at = case when ${a.status} = 'pending' then null else now() end
      where id = ${id} and status = 'pending'`);
  },

  /** Events older than `days` with nothing left to deliver go, with their deliveries' log rows. */
  async prune(days: number): Promise<void> {
    await db.execute(sql`delete from webhook_events e
      where e.created_at < now() - make_interval(days => ${days})
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')`);
  },

  /** Subscriptions whose queue has a due delivery and no live lease (the recovery tick wakes them). */
  dueSubscriptions: () =>
    typedRows<{ id: number }>(
      db,
      sql`select distinct s.id from webhook_subscriptions s
        join webhook_deliveries d on d.subscription_id = s.id and d.status = 'pending' and d.next_attempt_at <= now()
        where s.enabled and (s.lease_until is null or s.lease_until < now())`,
    ),
});
export type WebhooksRepo = ReturnType<typeof webhooksRepo>;
