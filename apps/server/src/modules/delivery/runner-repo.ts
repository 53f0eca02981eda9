import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows } from '../../db/sql.ts';
import type { DeliveryMessage } from './table.ts';
import { slackMembers } from '../workspace-data/table.ts';

/*
 * The engine's statements (engine.ts): a due recipient claimed with its attempt counted, its outcome recorded
 * with the receipt's counts, given back or tried again later; when the next is due, and which workspaces have
 * due work (the recovery sweep).
 */

export type ClaimedRecipient = {
  id: number;
  receipt_id: number;
  team_id: string;
  kind: 'member' | 'channel';
  target_id: string;
  attempts: number;
  uncertain: number;
  channel_id: string | null;
  first_attempt_at: string;
  sender: 'bot' | 'admin';
  admin_user: string | null;
  message: DeliveryMessage;
  /** The member left Slack (deactivated) since the audience was resolved. */
  deactivated: boolean;
};

/** A receipt whose last recipient was just sent or failed (send.finished's data, see webhooks). */
export type FinishedReceipt = {
  id: number;
  team_id: string;
  action_type: string;
  description: string;
  total: number;
  sent: number;
  failed: number;
  created_at: string;
  finished_at: string;
  /** Who started the send (null: an automation, a schedule, a workflow, a form's acknowledgement); not in the webhook's data. */
  created_by: string | null;
};

const finishedReturning = sql.raw(`returning case when finished_at is not null and sent + failed >= total then
    json_build_object('id', id, 'team_id', team_id, 'action_type', action_type, 'description', description,
      'total', total, 'sent', sent, 'failed', failed, 'created_by', created_by,
      'created_at', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'finished_at', to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) end as finished`);

/**
 * `onFinished`: called once a receipt's last recipient is recorded (after its transaction committed); it must not
 * throw (webhooks' emit does not).
 */
export const deliveryRunnerRepo = (
  db: Db,
  hooks: { onFinished?: (r: FinishedReceipt) => Promise<void> } = {},
) => ({
  /**
   * Takes the next due recipient of a workspace for this worker: the attempt is counted and a lease set before
   * Slack is called, and committed. A row still `sending` after its lease lapsed is taken as uncertain: its
   * worker died or hung between the call and the commit.
   *
   * Which one: the first due recipient of the open receipt served least recently (never served first), and that
   * receipt's turn is taken in the same statement. The sends of a workspace take turns, one recipient each: a
   * one-recipient send made during a 10,000-recipient one is sent next, and the bulk loses one slot, not its
   * pace. The lock is on the recipient row (skip locked): lanes and workers claiming at once take different rows.
   */
  async claim(teamId: string, leaseSeconds: number): Promise<ClaimedRecipient | null> {
    const [row] = await typedRows<ClaimedRecipient>(
      db,
      sql`
        with picked as (
          select p.id, d.id as receipt_id
          from (
            select id, served_at from delivery_receipts
            where team_id = ${teamId} and finished_at is null
            order by served_at nulls first, id
          ) d
          cross join lateral (
            select id from delivery_recipients
            where receipt_id = d.id and state in ('pending', 'sending') and due_at <= now()
              and (state = 'pending' or lease_until < now())
            order by due_at, id
            limit 1
            for update skip locked
          ) p
          order by d.served_at nulls first, d.id
          limit 1
        ), served as (
          update delivery_receipts set served_at = clock_timestamp()
          from picked where delivery_receipts.id = picked.receipt_id
        ), claimed as (
          update delivery_recipients r
          set state = 'sending',
              attempts = r.attempts + 1,
              uncertain = case when r.state = 'sending' then 1 else r.uncertain end,
              lease_until = now() + make_interval(secs => ${leaseSeconds}),
              first_attempt_at = coalesce(r.first_attempt_at, now()),
              updated_at = now()
          from picked where r.id = picked.id
          returning r.id, r.receipt_id, r.team_id, r.kind, r.target_id, r.attempts, r.uncertain, r.channel_id,
                    r.first_attempt_at
        )
        select c.id::int as id, c.receipt_id::int as receipt_id, c.team_id, c.kind, c.target_id, c.attempts,
               c.uncertain, c.channel_id, c.first_attempt_at::text as first_attempt_at,
               d.sender, d.admin_user, d.message,
               coalesce(m.deleted, false) as deactivated
        from claimed c
        join delivery_receipts d on d.id = c.receipt_id
        left join ${slackMembers} m on c.kind = 'member' and m.team_id = c.team_id and m.member_id = c.target_id`,
    );
    return row ?? null;
  },

  /** Gives a claimed row back untried (the pace would make it wait too long): due at `dueAt`. */
  async release(r: ClaimedRecipient, dueAt: Date): Promise<void> {
    await db.execute(sql`update delivery_recipients
      set state = 'pending', attempts = attempts - 1, lease_until = null, due_at = ${dueAt.toISOString()}::timestamptz,
          updated_at = now()
      where id = ${r.id} and state = 'sending' and attempts = ${r.attempts}`);
  },

  /** The conversation is known (the DM's id), so a later search needs no conversations.open. */
  async noteChannel(r: ClaimedRecipient, channelId: string): Promise<void> {
    await db.execute(sql`update delivery_recipients set channel_id = ${channelId} where id = ${r.id}`);
  },

  /** Sent: the row and its receipt's count move together. False when another worker took the row meanwhile. */
  async markSent(r: ClaimedRecipient, channelId: string | null, ts: string | null): Promise<boolean> {
    return db
      .transaction(async (tx) => {
        const moved = await typedRows<{ id: number }>(
          tx,
          sql`update delivery_recipients
          set state = 'sent', ts = ${ts}, channel_id = coalesce(${channelId}, channel_id), lease_until = null,
              error = null, retryable = 0, updated_at = now()
          where id = ${r.id} and state = 'sending' and attempts = ${r.attempts} returning id`,
        );
        if (moved.length === 0) return { moved: false, finished: null };
        const [receipt] = await typedRows<{ finished: FinishedReceipt | null }>(
          tx,
          sql`update delivery_receipts set sent = sent + 1,
          finished_at = case when sent + 1 + failed >= total then now() else finished_at end
        where id = ${r.receipt_id} ${finishedReturning}`,
        );
        return { moved: true, finished: receipt?.finished ?? null };
      })
      .then(async ({ moved, finished }) => {
        if (finished) await hooks.onFinished?.(finished);
        return moved;
      });
  },

  /** Failed for good (or out of tries): recorded with Slack's error code. */
  async markFailed(r: ClaimedRecipient, error: string, retryable: boolean): Promise<boolean> {
    return db
      .transaction(async (tx) => {
        const moved = await typedRows<{ id: number }>(
          tx,
          sql`update delivery_recipients
          set state = 'failed', error = ${error}, retryable = ${retryable ? 1 : 0}, lease_until = null,
              updated_at = now()
          where id = ${r.id} and state = 'sending' and attempts = ${r.attempts} returning id`,
        );
        if (moved.length === 0) return { moved: false, finished: null };
        const [receipt] = await typedRows<{ finished: FinishedReceipt | null }>(
          tx,
          sql`update delivery_receipts set failed = failed + 1, retryable = retryable + ${retryable ? 1 : 0},
          finished_at = case when sent + failed + 1 >= total then now() else finished_at end
        where id = ${r.receipt_id} ${finishedReturning}`,
        );
        return { moved: true, finished: receipt?.finished ?? null };
      })
      .then(async ({ moved, finished }) => {
        if (finished) await hooks.onFinished?.(finished);
        return moved;
      });
  },

  /**
   * Another try at `dueAt`. `uncertain`: the call may have reached Slack (timeout, 5xx), so the next attempt
   * searches the conversation first. `countAttempt` false for a 429 (Slack did nothing; it costs no try).
   */
  async retryLater(
    r: ClaimedRecipient,
    o: { dueAt: Date; error: string; uncertain: boolean; countAttempt: boolean },
  ): Promise<void> {
    await db.execute(sql`update delivery_recipients
      set state = 'pending', due_at = ${o.dueAt.toISOString()}::timestamptz, error = ${o.error}, lease_until = null,
          uncertain = case when ${o.uncertain} then 1 else uncertain end,
          attempts = attempts - ${o.countAttempt ? 0 : 1}, updated_at = now()
      where id = ${r.id} and state = 'sending' and attempts = ${r.attempts}`);
  },

  /** Milliseconds until this workspace's next open row is due (0 = now), or null when nothing is open. */
  async nextDueMs(teamId: string): Promise<number | null> {
    const [row] = await typedRows<{ ms: number | null }>(
      db,
      sql`select (extract(epoch from (min(
            case when state = 'pending' then due_at else greatest(due_at, lease_until) end) - now())) * 1000)::float8 as ms
        from delivery_recipients where team_id = ${teamId} and state in ('pending', 'sending')`,
    );
    return row?.ms === null || row?.ms === undefined ? null : Math.max(0, Number(row.ms));
  },

  /** Workspaces with open rows due by now (or leases lapsed): the recovery sweep wakes a sender for each. */
  async teamsWithDueWork(): Promise<string[]> {
    return (
      await typedRows<{ team_id: string }>(
        db,
        sql`select distinct team_id from delivery_recipients
        where state in ('pending', 'sending') and due_at <= now() and (state = 'pending' or lease_until < now())`,
      )
    ).map((r) => r.team_id);
  },
});
export type DeliveryRunnerRepo = ReturnType<typeof deliveryRunnerRepo>;
