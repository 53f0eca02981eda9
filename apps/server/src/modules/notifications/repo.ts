import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';
import { workspaceAdmins, workspaces } from '../workspaces/table.ts';

export type NotificationRow = {
  id: number;
  team_id: string;
  workspace_name: string;
  kind: string;
  data: Record<string, unknown>;
  count: number;
  at: string;
  /** Microseconds since the epoch of `at` (the cursor's first half: exact, unlike a millisecond time). */
  at_us: string;
  read: boolean;
};

/** Where a page starts: after the row at `atUs` (microseconds since the epoch) with id `id`. */
export type Cursor = { atUs: string; id: number };

/**
 * Only rows of workspaces the person still administers: an admin removed from a workspace no longer sees its
 * notifications (nor can mark them).
 */
const stillAdmin = sql`exists (select 1 from ${workspaceAdmins} a where a.user_id = n.user_id and a.team_id = n.team_id)`;

export const notificationsRepo = (db: Db) => ({
  /**
   * One row per admin of the workspace (any role), each once per `dedupeKey`: a happening recorded again (a
   * finish seen twice, a retried job) adds nothing. Answers how many rows were new.
   */
  async fanOut(
    runner: Tx,
    n: { teamId: string; kind: string; data: Record<string, unknown>; dedupeKey: string },
  ): Promise<number> {
    const rows = await typedRows<{ id: number }>(
      runner,
      sql`insert into notifications (user_id, team_id, kind, data, dedupe_key)
        select a.user_id, ${n.teamId}, ${n.kind}, ${JSON.stringify(n.data)}::jsonb, ${n.dedupeKey}
        from ${workspaceAdmins} a where a.team_id = ${n.teamId}
        on conflict do nothing
        returning id`,
    );
    return rows.length;
  },

  /**
   * Gathers a happening into each admin's one unread row of `groupKey` (count + 1, its time and data the
   * latest), or starts that row when the admin has read the last one.
   */
  async gather(
    runner: Tx,
    n: { teamId: string; kind: string; data: Record<string, unknown>; groupKey: string },
  ): Promise<void> {
    await runner.execute(
      sql`insert into notifications (user_id, team_id, kind, data, group_key)
        select a.user_id, ${n.teamId}, ${n.kind}, ${JSON.stringify(n.data)}::jsonb, ${n.groupKey}
        from ${workspaceAdmins} a where a.team_id = ${n.teamId}
        on conflict (user_id, group_key) where read_at is null
        do update set count = notifications.count + 1, at = now(), data = excluded.data`,
    );
  },

  /** A person's notifications, newest first, `limit` from after `cursor`. */
  page: (userId: string, limit: number, cursor: Cursor | null) =>
    typedRows<NotificationRow>(
      db,
      sql`select n.id, n.team_id, coalesce(w.workspace_name, n.team_id) as workspace_name, n.kind, n.data,
          n.count, to_char(n.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
          (extract(epoch from n.at) * 1000000)::bigint::text as at_us, n.read_at is not null as read
        from notifications n left join ${workspaces} w on w.team_id = n.team_id
        where n.user_id = ${userId} and ${stillAdmin}
          ${
            cursor
              ? sql`and (n.at, n.id) < (timestamptz 'epoch' + ${cursor.atUs}::bigint * interval '1 microsecond', ${cursor.id}::int)`
              : sql``
          }
        order by n.at desc, n.id desc
        limit ${limit}`,
    ),

  async unread(userId: string): Promise<number> {
    const row = await firstRow<{ n: number }>(
      db,
      sql`select count(*)::int as n from notifications n
        where n.user_id = ${userId} and n.read_at is null and ${stillAdmin}`,
    );
    return row?.n ?? 0;
  },

  /** Marks one of the person's own notifications read (again is fine); false when it is not theirs. */
  async markRead(userId: string, id: number): Promise<boolean> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`update notifications n set read_at = coalesce(n.read_at, now())
        where n.id = ${id} and n.user_id = ${userId} and ${stillAdmin}
        returning n.id`,
    );
    return rows.length > 0;
  },

  async markAllRead(userId: string): Promise<void> {
    await db.execute(
      sql`update notifications set read_at = now() where user_id = ${userId} and read_at is null`,
    );
  },

  /**
   * The workspace's connection (read in the caller's transaction): its status and when its row last changed
   * (a reconnection changes it; the disconnection itself is written after the drain's batch commits).
   */
  connection: (runner: Tx, teamId: string) =>
    firstRow<{ status: string; updated_at: string }>(
      runner,
      sql`select status, (extract(epoch from updated_at) * 1000000)::bigint::text as updated_at
        from ${workspaces} where team_id = ${teamId}`,
    ),

  async deleteOlderThan(cutoff: Date): Promise<number> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`delete from notifications where at < ${cutoff.toISOString()}::timestamptz returning id`,
    );
    return rows.length;
  },
});
