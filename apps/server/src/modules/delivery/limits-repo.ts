import { sql } from 'drizzle-orm';
import { firstRow, intArray, textArray, typedRows, type Tx } from '../../db/sql.ts';
import { slackMembers } from '../workspace-data/table.ts';
import type { NewReceipt } from './repo.ts';

/** The budget's window: messages queued in the last 24 hours count. */
export const BUDGET_WINDOW_HOURS = 24;

/**
 * What the send limits read and write (the daily budget, the receipts already made under a key, the per-member
 * marks). Every statement takes its runner: the sends of a workspace run them in one transaction under
 * `LOCKS.sends(teamId)`.
 */
export const limitsRepo = {
  /** People who can get a message (the budget's "members"): not bots, not deactivated, not Slackbot. */
  async reachableMembers(runner: Tx, teamId: string): Promise<number> {
    const row = await firstRow<{ n: number }>(
      runner,
      sql`select count(*)::int as n from ${slackMembers}
        where team_id = ${teamId} and not is_bot and not deleted and member_id <> 'USLACKBOT'`,
    );
    return row?.n ?? 0;
  },

  /** Messages (recipients of receipts) the workspace queued in the last 24 hours. */
  async usedToday(runner: Tx, teamId: string): Promise<number> {
    const row = await firstRow<{ n: number }>(
      runner,
      sql`select coalesce(sum(total), 0)::int as n from delivery_receipts
        where team_id = ${teamId} and created_at > now() - make_interval(hours => ${BUDGET_WINDOW_HOURS})`,
    );
    return row?.n ?? 0;
  },

  /** Receipts already made under these keys (a send asked again), with why nothing was sent when refused. */
  async receiptsByKey(
    runner: Tx,
    keys: string[],
  ): Promise<Map<string, { id: number; total: number; error: string | null }>> {
    if (keys.length === 0) return new Map();
    const rows = await typedRows<{
      id: number;
      total: number;
      error: string | null;
      idempotency_key: string;
    }>(
      runner,
      sql`select id::int as id, total, error, idempotency_key from delivery_receipts
        where idempotency_key = any(${textArray(keys)}::text[])`,
    );
    return new Map(rows.map((r) => [r.idempotency_key, { id: r.id, total: r.total, error: r.error }]));
  },

  /** Why these receipts sent nothing (only the refused ones are in the map). */
  async receiptErrors(runner: Tx, teamId: string, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await typedRows<{ id: number; error: string }>(
      runner,
      sql`select id::int as id, error from delivery_receipts
        where team_id = ${teamId} and error is not null and id = any(${intArray(ids)}::bigint[])`,
    );
    return new Map(rows.map((r) => [r.id, r.error]));
  },

  /** A receipt that sends nothing and says why (a scheduled or workflow send over the budget). */
  async refusedReceipt(runner: Tx, r: NewReceipt, error: string): Promise<number> {
    const [row] = await typedRows<{ id: number }>(
      runner,
      sql`insert into delivery_receipts (team_id, action_type, description, sender, admin_user, message, created_by,
          idempotency_key, total, finished_at, error)
        values (${r.teamId}, ${r.actionType}, ${r.description}, ${r.sender}, ${r.adminUser},
          ${JSON.stringify(r.message)}::jsonb, ${r.createdBy}, ${r.idempotencyKey ?? null}, 0, now(), ${error})
        on conflict (idempotency_key) do update set error = delivery_receipts.error
        returning id::int as id`,
    );
    return row!.id;
  },

  /** Of these members, the ones `scope` reached after `since`. */
  async reachedSince(runner: Tx, teamId: string, scope: string, members: string[], since: Date) {
    if (members.length === 0) return new Set<string>();
    const rows = await typedRows<{ member_id: string }>(
      runner,
      sql`select member_id from delivery_member_marks
        where team_id = ${teamId} and scope = ${scope} and member_id = any(${textArray(members)}::text[])
          and sent_at > ${since.toISOString()}::timestamptz`,
    );
    return new Set(rows.map((r) => r.member_id));
  },

  /** `scope` reached these members at `at`. */
  async markReached(runner: Tx, teamId: string, scope: string, members: string[], at: Date): Promise<void> {
    if (members.length === 0) return;
    await runner.execute(sql`insert into delivery_member_marks (team_id, scope, member_id, sent_at)
      select ${teamId}, ${scope}, m, ${at.toISOString()}::timestamptz from unnest(${textArray(members)}::text[]) as m
      on conflict (team_id, scope, member_id) do update set sent_at = greatest(delivery_member_marks.sent_at, excluded.sent_at)`);
  },
};
