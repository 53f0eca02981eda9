import { sql, type SQL } from 'drizzle-orm';
import type { MemberSortField, Operator } from '@flywheel/shared/members';
import type { Db } from '../../db/client.ts';
import { memberTotalsSource } from '../slack/standing-windows.ts';

type Rows<T> = { rows: T[] };

/** A resolved filter: local days, instants and ids, ready for SQL. */
export type MemberQuery = {
  teamId: string;
  /** Activity window, local days (inclusive). */
  fromDay: string;
  toDay: string;
  channels: string[] | null;
  tags: number[] | null;
  base: {
    kind: 'join' | 'leave';
    fromDay?: string;
    toDay?: string;
    fromTs?: Date;
    toTs?: Date;
  } | null;
  activity: {
    combiner: 'AND' | 'OR';
    conditions: { column: 'messages' | 'reactions' | 'replies'; operator: Operator; count: number }[];
  } | null;
  search: string | null;
  memberIds: string[] | null;
  sort: { field: MemberSortField; direction: 'asc' | 'desc' };
};

export type MemberDataRow = {
  member_id: string;
  real_name: string;
  display_name: string;
  email: string;
  avatar_url: string | null;
  is_admin: boolean;
  deleted: boolean;
  join_time: string | null;
  last_active: string | null;
  messages: number;
  replies: number;
  reactions: number;
  total: number;
};

const SORT_SQL: Record<MemberSortField, SQL> = {
  real_name: sql`lower(m.real_name)`,
  display_name: sql`lower(m.display_name)`,
  email: sql`lower(m.email)`,
  messages: sql`coalesce(a.messages, 0)`,
  reactions: sql`coalesce(a.reactions, 0)`,
  replies: sql`coalesce(a.replies, 0)`,
  activity: sql`coalesce(a.messages + a.replies + a.reactions, 0)`,
  last_active: sql`m.last_active_at`,
  join_time: sql`m.joined_at`,
};

const OPS: Record<Operator, SQL> = { '>': sql`>`, '<': sql`<`, '=': sql`=` };

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The activity rollup of the window, per member (rollups only, never raw messages): whole months and edge
 * days of the per-member rollups when every channel counts; per member, channel and day when narrowed.
 */
async function activityCte(db: Db, q: MemberQuery, only: string[] | null): Promise<SQL> {
  const source = q.channels
    ? sql`select member_id, sum(messages)::int as messages, sum(replies)::int as replies,
        sum(reactions)::int as reactions from activity_daily where team_id = ${q.teamId}
        and channel_id = any(${sql.param(q.channels)}::text[]) and day >= ${q.fromDay}::date
        and day <= ${q.toDay}::date
        ${only ? sql`and member_id = any(${sql.param(only)}::text[])` : sql``} group by member_id`
    : await memberTotalsSource(db, q.teamId, q.fromDay, q.toDay, only);
  return sql`act as (${source})`;
}

/** Above this many, summing everyone's rollups is cheaper than looking members up one by one. */
const FEW_CANDIDATES = 2000;

/**
 * When search, tags, a join/leave window or chosen ids narrow the list to a few members, their ids: the
 * activity is then summed for them alone. Null when nothing narrows it (or too little).
 */
async function candidates(db: Db, q: MemberQuery): Promise<string[] | null> {
  if (!q.search && !q.tags && !q.base && !q.memberIds) return null;
  const r = (await db.execute(sql`select m.member_id from slack_members m
    where ${conditions({ ...q, activity: null }, null)} limit ${FEW_CANDIDATES + 1}`)) as unknown as Rows<{
    member_id: string;
  }>;
  return r.rows.length > FEW_CANDIDATES ? null : r.rows.map((x) => x.member_id);
}

/** The filter as SQL over `m` (members) and `a` (activity); with `only`, the members other filters already chose. */
function conditions(q: MemberQuery, only: string[] | null): SQL {
  const where: SQL[] = [sql`m.team_id = ${q.teamId}`, sql`not m.is_bot`];
  if (only)
    return sql.join(
      [...where, sql`m.member_id = any(${sql.param(only)}::text[])`, ...activityWhere(q)],
      sql` and `,
    );
  if (q.memberIds) where.push(sql`m.member_id = any(${sql.param(q.memberIds)}::text[])`);
  if (q.search) {
    const p = likePattern(q.search);
    where.push(sql`(m.real_name ilike ${p} or m.display_name ilike ${p} or m.email ilike ${p})`);
  }
  if (q.channels)
    where.push(sql`exists (select 1 from slack_channel_members cm where cm.team_id = m.team_id
      and cm.member_id = m.member_id and cm.channel_id = any(${sql.param(q.channels)}::text[]))`);
  if (q.tags)
    where.push(sql`exists (select 1 from member_tags mt where mt.team_id = m.team_id
      and mt.member_id = m.member_id and mt.tag_id = any(${sql.param(q.tags)}::int[]))`);
  if (q.base) {
    const b = q.base;
    const window = b.fromTs
      ? sql`e.at >= ${b.fromTs.toISOString()}::timestamptz and e.at <= ${b.toTs!.toISOString()}::timestamptz`
      : sql`e.day >= ${b.fromDay!}::date and e.day <= ${b.toDay!}::date`;
    where.push(sql`exists (select 1 from slack_member_events e where e.team_id = m.team_id
      and e.member_id = m.member_id and e.kind = ${b.kind} and ${window})`);
  }
  where.push(...activityWhere(q));
  return sql.join(where, sql` and `);
}

function activityWhere(q: MemberQuery): SQL[] {
  const where: SQL[] = [];
  if (q.activity && q.activity.conditions.length > 0) {
    const parts = q.activity.conditions.map(
      (c) => sql`coalesce(a.${sql.raw(c.column)}, 0) ${OPS[c.operator]} ${c.count}`,
    );
    where.push(sql`(${sql.join(parts, q.activity.combiner === 'AND' ? sql` and ` : sql` or `)})`);
  }
  return where;
}

function orderBy(q: MemberQuery): SQL {
  const dir = q.sort.direction === 'asc' ? sql`asc` : sql`desc`;
  return sql`${SORT_SQL[q.sort.field]} ${dir} nulls last, m.member_id`;
}

export const membersRepo = (db: Db) => ({
  /**
   * One page of filtered, sorted members with the total count of matches. The matches are counted and
   * ranked as narrow rows (id, sort key, counts); only the page's rows are then joined to their details.
   */
  async page(q: MemberQuery, limit: number, offset: number): Promise<MemberDataRow[]> {
    const only = await candidates(db, q);
    const dir = q.sort.direction === 'asc' ? sql`asc` : sql`desc`;
    const r = (await db.execute(sql`with ${await activityCte(db, q, only)},
      ranked as (
        select m.member_id, ${SORT_SQL[q.sort.field]} as k, coalesce(a.messages, 0)::int as messages,
          coalesce(a.replies, 0)::int as replies, coalesce(a.reactions, 0)::int as reactions,
          (count(*) over ())::int as total
        from slack_members m left join act a on a.member_id = m.member_id
        where ${conditions(q, only)}
        order by ${orderBy(q)}
        limit ${limit} offset ${offset})
      select m.member_id, m.real_name, m.display_name, coalesce(m.email, '') as email, m.avatar_url, m.is_admin, m.deleted,
        (extract(epoch from m.joined_at) * 1000000)::bigint::text as join_time,
        (extract(epoch from m.last_active_at) * 1000000)::bigint::text as last_active,
        p.messages, p.replies, p.reactions, p.total
      from ranked p join slack_members m on m.team_id = ${q.teamId} and m.member_id = p.member_id
      order by p.k ${dir} nulls last, p.member_id`)) as unknown as Rows<MemberDataRow>;
    return r.rows;
  },

  async count(q: MemberQuery): Promise<number> {
    const only = await candidates(db, q);
    const r = (await db.execute(sql`with ${await activityCte(db, q, only)}
      select count(*)::int as n from slack_members m left join act a on a.member_id = m.member_id
      where ${conditions(q, only)}`)) as unknown as Rows<{ n: number }>;
    return r.rows[0]?.n ?? 0;
  },

  /** Name and e-mail of every match, in table order, for the CSV export. */
  async exportRows(q: MemberQuery): Promise<{ real_name: string; display_name: string; email: string }[]> {
    const only = await candidates(db, q);
    const r = (await db.execute(sql`with ${await activityCte(db, q, only)}
      select m.real_name, m.display_name, coalesce(m.email, '') as email
      from slack_members m left join act a on a.member_id = m.member_id
      where ${conditions(q, only)}
      order by ${orderBy(q)}`)) as unknown as Rows<{
      real_name: string;
      display_name: string;
      email: string;
    }>;
    return r.rows;
  },
});
