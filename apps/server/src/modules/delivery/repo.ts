import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { textArray, typedRows } from '../../db/sql.ts';
import type { DeliveryMessage } from './table.ts';

/*
 * The front door's writes: a send's receipt with one row per recipient (admit.ts writes them under the limits).
 * What the engine claims and records is runner-repo.ts; what the Receipts page reads, history-repo.ts; the posted
 * messages' lookups, posted-repo.ts; uploaded images, images-repo.ts.
 */

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

export const deliveryRepo = (db: Db) => ({
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
});
export type DeliveryRepo = ReturnType<typeof deliveryRepo>;
