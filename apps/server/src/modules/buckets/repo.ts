import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { BucketDefinition } from '@flywheel/shared/buckets';
import type { Db } from '../../db/client.ts';
import { typedRows } from '../../db/sql.ts';
import type { MemberExportRow } from '../activity/members-ranking.ts';
import { bucketMembers, buckets } from './table.ts';
import { channelNames as channelNamesOf } from '../workspace-data/names.ts';
import { slackMembers } from '../workspace-data/table.ts';

export type BucketRecord = typeof buckets.$inferSelect;

/** What a run found: the statement of its matches (activity's `matchesQuery`), and how its rows are labelled. */
export type BucketRun = {
  at: Date;
  fromDay: string;
  toDay: string;
  channels: string;
  /** Selects member_id, messages, replies, reactions of every member the run found. */
  matches: SQL;
};

/** csvCell in SQL: quoted, quotes doubled, a leading =, +, -, @, tab or CR made text with a quote mark. */
export const csvCellSql = (value: SQL) =>
  sql`'"' || replace(case when left(${value}, 1) in ('=', '+', '-', '@', E'\t', E'\r') then '''' || ${value}
    else ${value} end, '"', '""') || '"'`;

/**
 * One split-by-date CSV line of a breakdown row `r` (bucketCsvLines' columns: date, member name, e-mail,
 * channel as '#name', messages, reactions, replies, activity), written by the database for large exports.
 */
export const bucketCsvLineSql = sql`${csvCellSql(sql`r.day`)} || ',' ||
  ${csvCellSql(sql`coalesce(nullif(r.real_name, ''), r.display_name, '')`)} || ',' ||
  ${csvCellSql(sql`coalesce(r.email, '')`)} || ',' || ${csvCellSql(sql`'#' || r.channel_name`)} || ',' ||
  r.messages || ',' || r.reactions || ',' || r.replies || ',' || (r.messages + r.replies + r.reactions) || E'\r\n'`;

export const bucketsRepo = (db: Db) => ({
  /** Inserts the bucket; undefined when the workspace has a bucket of that name (any case). */
  async create(teamId: string, name: string, data: BucketDefinition): Promise<BucketRecord | undefined> {
    const [row] = await db.insert(buckets).values({ teamId, name, data }).onConflictDoNothing().returning();
    return row;
  },

  list: (teamId: string) =>
    db.select().from(buckets).where(eq(buckets.teamId, teamId)).orderBy(desc(buckets.id)),

  async get(teamId: string, id: number): Promise<BucketRecord | undefined> {
    const [row] = await db
      .select()
      .from(buckets)
      .where(and(eq(buckets.teamId, teamId), eq(buckets.id, id)));
    return row;
  },

  /**
   * Replaces the bucket's members with the run's matches and stamps the run, in one transaction, inside the
   * database (the matches never travel to the process and back), writing only the rows that changed. Undefined
   * when the bucket is not there.
   */
  async saveRun(teamId: string, id: number, run: BucketRun): Promise<BucketRecord | undefined> {
    return db.transaction(async (tx) => {
      const [held] = await typedRows<{ id: number }>(
        tx,
        sql`select id from buckets where team_id = ${teamId} and id = ${id} for update`,
      );
      if (!held) return undefined;
      // Only what changed is written: members no longer found go, new ones come, changed counts move.
      const [stored] = await typedRows<{ n: number }>(
        tx,
        sql`with found as (${run.matches}),
          gone as (
            delete from bucket_members b where b.bucket_id = ${id}
              and not exists (select 1 from found f where f.member_id = b.member_id)),
          kept as (
            insert into bucket_members as b (bucket_id, team_id, member_id, messages, replies, reactions)
            select ${id}, ${teamId}, member_id, messages, replies, reactions from found
            on conflict (bucket_id, member_id) do update
              set messages = excluded.messages, replies = excluded.replies, reactions = excluded.reactions
              where (b.messages, b.replies, b.reactions)
                is distinct from (excluded.messages, excluded.replies, excluded.reactions))
          select count(*)::int as n from found`,
      );
      const [row] = await tx
        .update(buckets)
        .set({
          lastExecute: run.at,
          lastCount: stored!.n,
          lastFromDay: run.fromDay,
          lastToDay: run.toDay,
          lastChannels: run.channels,
        })
        .where(and(eq(buckets.teamId, teamId), eq(buckets.id, id)))
        .returning();
      return row;
    });
  },

  /** The last run's members with their names and counts, most active first. */
  runRows: (teamId: string, id: number) =>
    typedRows<MemberExportRow>(
      db,
      sql`select bm.member_id, m.real_name, m.display_name, coalesce(m.email, '') as email, bm.messages,
        bm.replies, bm.reactions
      from bucket_members bm join ${slackMembers} m on m.team_id = bm.team_id and m.member_id = bm.member_id
      where bm.team_id = ${teamId} and bm.bucket_id = ${id}
      order by bm.messages + bm.replies + bm.reactions desc, bm.member_id`,
    ),

  async memberIds(teamId: string, id: number): Promise<string[]> {
    const rows = await db
      .select({ memberId: bucketMembers.memberId })
      .from(bucketMembers)
      .where(and(eq(bucketMembers.teamId, teamId), eq(bucketMembers.bucketId, id)));
    return rows.map((r) => r.memberId);
  },

  async remove(teamId: string, id: number): Promise<boolean> {
    const rows = await db
      .delete(buckets)
      .where(and(eq(buckets.teamId, teamId), eq(buckets.id, id)))
      .returning({ id: buckets.id });
    return rows.length > 0;
  },

  /** Names of the workspace's channels among `ids`. */
  channelNames: (teamId: string, ids: string[]) => channelNamesOf(db, teamId, ids),
});
export type BucketsRepo = ReturnType<typeof bucketsRepo>;
