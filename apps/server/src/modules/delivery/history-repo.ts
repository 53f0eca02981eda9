import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows } from '../../db/sql.ts';
import { slackChannels, slackMembers } from '../workspace-data/table.ts';

/** What the Receipts page reads back (history.ts): receipts, their failures and recipients; and a retry. */

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

export const deliveryHistoryRepo = (db: Db) => ({
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
});
export type DeliveryHistoryRepo = ReturnType<typeof deliveryHistoryRepo>;
