import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { textArray, typedRows, type Tx } from '../../db/sql.ts';
import type { DeliveryMessage } from './table.ts';
import { slackChannels, slackMembers, slackMessages } from '../workspace-data/table.ts';

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

export type RecipientCsvRow = {
  name: string;
  /** The member's or channel's Slack id. */
  id: string;
  type: 'member' | 'channel';
  email: string;
  state: string;
  error: string | null;
};

export type ReceiptRow = {
  id: number;
  action_type: string;
  description: string;
  sender: 'bot' | 'admin';
  created_at: string;
  total: number;
  sent: number;
  failed: number;
  retryable: number;
};

export type NewReceipt = {
  teamId: string;
  actionType: string;
  description: string;
  sender: 'bot' | 'admin';
  adminUser: string | null;
  message: DeliveryMessage;
  createdBy: string | null;
  /** One receipt per key: asking again answers the first receipt. */
  idempotencyKey?: string | null;
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
export const deliveryRepo = (db: Db, hooks: { onFinished?: (r: FinishedReceipt) => Promise<void> } = {}) => ({
  /**
   * A receipt with its recipients, in one statement (atomic: it is sent whole or not at all, and one round trip
   * for the many small sends of a minute's schedules). A key already used answers its first receipt.
   */
  async createReceipt(
    r: NewReceipt,
    recipients: { members: string[]; channels: string[] },
  ): Promise<{ id: number; total: number; existing?: boolean }> {
    const members = [...new Set(recipients.members)];
    const channels = [...new Set(recipients.channels)];
    const total = members.length + channels.length;
    const [created] = await typedRows<{ id: number }>(
      db,
      sql`
        with receipt as (
          insert into delivery_receipts (team_id, action_type, description, sender, admin_user, message, created_by,
                                         idempotency_key, total, finished_at)
          values (${r.teamId}, ${r.actionType}, ${r.description}, ${r.sender}, ${r.adminUser},
                  ${JSON.stringify(r.message)}::jsonb, ${r.createdBy}, ${r.idempotencyKey ?? null}, ${total},
                  case when ${total}::int = 0 then now() end)
          on conflict (idempotency_key) do nothing
          returning id
        ), recipients as (
          insert into delivery_recipients (receipt_id, team_id, kind, target_id)
          select receipt.id, ${r.teamId}, 'channel', t from receipt, unnest(${textArray(channels)}::text[]) as t
          union all
          select receipt.id, ${r.teamId}, 'member', t from receipt, unnest(${textArray(members)}::text[]) as t
        )
        select id::int as id from receipt`,
    );
    if (created) return { id: created.id, total };
    const [existing] = await typedRows<{ id: number; total: number }>(
      db,
      sql`select id::int as id, total from delivery_receipts where idempotency_key = ${r.idempotencyKey ?? null}`,
    );
    return { id: existing!.id, total: existing!.total, existing: true };
  },

  /**
   * Many keyed receipts with their recipients in one statement (a minute's schedules: one round trip for a batch
   * of runs instead of one each). Each key makes one receipt: a key already used answers its first receipt.
   * Answers in the order given.
   */
  async createKeyedReceipts(
    items: {
      receipt: NewReceipt & { idempotencyKey: string };
      recipients: { members: string[]; channels: string[] };
    }[],
  ): Promise<{ id: number; total: number; existing: boolean }[]> {
    if (items.length === 0) return [];
    const rows = items.map(({ receipt: r, recipients }) => {
      const members = [...new Set(recipients.members)];
      const channels = [...new Set(recipients.channels)];
      return {
        team_id: r.teamId,
        action_type: r.actionType,
        description: r.description,
        sender: r.sender,
        admin_user: r.adminUser,
        message: r.message,
        created_by: r.createdBy,
        idempotency_key: r.idempotencyKey,
        total: members.length + channels.length,
        members,
        channels,
      };
    });
    const created = await typedRows<{ id: number; idempotency_key: string }>(
      db,
      sql`
        with input as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
            team_id text, action_type text, description text, sender text, admin_user text, message jsonb,
            created_by text, idempotency_key text, total int, members text[], channels text[])
        ), receipt as (
          insert into delivery_receipts (team_id, action_type, description, sender, admin_user, message, created_by,
                                         idempotency_key, total, finished_at)
          select team_id, action_type, description, sender, admin_user, message, created_by, idempotency_key, total,
                 case when total = 0 then now() end
          from input
          on conflict (idempotency_key) do nothing
          returning id, idempotency_key
        ), recipients as (
          insert into delivery_recipients (receipt_id, team_id, kind, target_id)
          select receipt.id, input.team_id, 'channel', t
            from receipt join input using (idempotency_key), unnest(input.channels) as t
          union all
          select receipt.id, input.team_id, 'member', t
            from receipt join input using (idempotency_key), unnest(input.members) as t
        )
        select id::int as id, idempotency_key from receipt`,
    );
    const byKey = new Map(created.map((c) => [c.idempotency_key, c.id]));
    const missing = rows.filter((r) => !byKey.has(r.idempotency_key)).map((r) => r.idempotency_key);
    const earlier = new Map<string, { id: number; total: number }>();
    if (missing.length > 0)
      for (const e of await typedRows<{ id: number; total: number; idempotency_key: string }>(
        db,
        sql`select id::int as id, total, idempotency_key from delivery_receipts
          where idempotency_key = any(${textArray(missing)}::text[])`,
      ))
        earlier.set(e.idempotency_key, { id: e.id, total: e.total });
    return rows.map((r) => {
      const id = byKey.get(r.idempotency_key);
      if (id !== undefined) return { id, total: r.total, existing: false };
      const e = earlier.get(r.idempotency_key)!;
      return { id: e.id, total: e.total, existing: true };
    });
  },

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

  /** The thread a reply to this message goes in (its parent's ts), or null when the message is unknown. */
  async threadRoot(teamId: string, channelId: string, ts: string): Promise<string | null> {
    const [row] = await typedRows<{ root: string }>(
      db,
      sql`select coalesce(nullif(thread_ts, ''), ts) as root from ${slackMessages}
        where team_id = ${teamId} and channel_id = ${channelId} and ts = ${ts}`,
    );
    return row?.root ?? null;
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

  async listReceipts(teamId: string, limit: number): Promise<ReceiptRow[]> {
    return await typedRows<ReceiptRow>(
      db,
      sql`select id::int as id, action_type, description, sender, created_at::text as created_at,
          total, sent, failed, retryable
        from delivery_receipts where team_id = ${teamId} order by id desc limit ${limit}`,
    );
  },

  async findReceipt(teamId: string, id: number): Promise<ReceiptRow | null> {
    const [row] = await typedRows<ReceiptRow>(
      db,
      sql`select id::int as id, action_type, description, sender, created_at::text as created_at,
          total, sent, failed, retryable
        from delivery_receipts where team_id = ${teamId} and id = ${id}`,
    );
    return row ?? null;
  },

  /** Why a receipt's failed recipients failed: each error with how many, the most common first (at most 5). */
  async failureReasons(receiptId: number): Promise<{ error: string; count: number }[]> {
    return typedRows<{ error: string; count: number }>(
      db,
      sql`select coalesce(error, 'unknown') as error, count(*)::int as count from delivery_recipients
        where receipt_id = ${receiptId} and state = 'failed'
        group by 1 order by 2 desc, 1 limit 5`,
    );
  },

  /** Recipients of a receipt with their names (members) or channel names, for the CSV downloads. */
  async recipients(receiptId: number, kind: 'total' | 'successful' | 'failed'): Promise<RecipientCsvRow[]> {
    const state =
      kind === 'successful'
        ? sql`and r.state = 'sent'`
        : kind === 'failed'
          ? sql`and r.state = 'failed'`
          : sql``;
    return await typedRows<RecipientCsvRow>(
      db,
      sql`select coalesce(nullif(m.real_name, ''), nullif(m.display_name, ''), c.name, r.target_id) as name,
          r.target_id as id, r.kind as type, coalesce(m.email, '') as email, r.state, r.error
        from delivery_recipients r
        left join ${slackMembers} m on r.kind = 'member' and m.team_id = r.team_id and m.member_id = r.target_id
        left join ${slackChannels} c on r.kind = 'channel' and c.team_id = r.team_id and c.channel_id = r.target_id
        where r.receipt_id = ${receiptId} ${state}
        order by r.id`,
    );
  },

  /** Retry: failed recipients whose error is worth another try go back to the queue; the counts follow. */
  async requeueRetryable(receiptId: number): Promise<number> {
    return db.transaction(async (tx) => {
      const moved = await typedRows<{ id: number }>(
        tx,
        sql`update delivery_recipients
          set state = 'pending', due_at = now(), retryable = 0, attempts = 0, updated_at = now()
          where receipt_id = ${receiptId} and state = 'failed' and retryable = 1 returning id`,
      );
      if (moved.length > 0)
        await tx.execute(sql`update delivery_receipts
          set failed = failed - ${moved.length}, retryable = greatest(0, retryable - ${moved.length}), finished_at = null
          where id = ${receiptId}`);
      return moved.length;
    });
  },

  /** The channel messages a receipt posted (channel and ts), and how many of its recipients are still open. */
  async postedMessages(
    teamId: string,
    receiptId: number,
    runner: Tx = db,
  ): Promise<{ messages: { channel: string; ts: string }[]; open: number }> {
    const rows = await typedRows<{ channel: string | null; ts: string | null; state: string }>(
      runner,
      sql`select coalesce(channel_id, target_id) as channel, ts, state from delivery_recipients
        where receipt_id = ${receiptId} and team_id = ${teamId} and kind = 'channel'`,
    );
    return {
      messages: rows
        .filter((r) => r.state === 'sent' && r.channel && r.ts)
        .map((r) => ({ channel: r.channel!, ts: r.ts! })),
      open: rows.filter((r) => r.state === 'pending' || r.state === 'sending').length,
    };
  },
});
export type DeliveryRepo = ReturnType<typeof deliveryRepo>;

export const imagesRepo = (db: Db) => ({
  async save(row: {
    fileId: string;
    teamId: string;
    name: string;
    url: string;
    bytes: number;
    createdBy: string | null;
  }) {
    await db.execute(sql`insert into delivery_images (file_id, team_id, name, url, bytes, created_by)
      values (${row.fileId}, ${row.teamId}, ${row.name}, ${row.url}, ${row.bytes}, ${row.createdBy})
      on conflict (file_id) do nothing`);
  },
  /** The ids among these that were uploaded for this workspace. */
  async known(teamId: string, fileIds: string[]): Promise<Set<string>> {
    if (!fileIds.length) return new Set();
    const rows = await typedRows<{ file_id: string }>(
      db,
      sql`select file_id from delivery_images where team_id = ${teamId}
        and file_id = any(${textArray(fileIds)}::text[])`,
    );
    return new Set(rows.map((r) => r.file_id));
  },
});
