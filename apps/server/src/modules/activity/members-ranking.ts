import { sql, type SQL } from 'drizzle-orm';
import type { MemberSortField, Operator } from '@flywheel/shared/members';
import type { Db } from '../../db/client.ts';
import { scopeCondition, type MemberScope } from './member-window.ts';
import { memberTotalsSource, readingOf, type Reading } from './standing-windows.ts';
import { typedResult, type Tx } from '../../db/sql.ts';
import { addDays } from '../../lib/days.ts';
import type { MemberCountsRow } from '../workspace-data/member-dto.ts';
import { memberTags } from '../tags/table.ts';
import type { EngagementLevel } from '@flywheel/shared/levels';
import { memberLevels } from './table.ts';
import { channelMembers, memberEvents, slackChannels, slackMembers } from '../workspace-data/table.ts';

/** A resolved filter: local days, instants and ids, ready for SQL. */
export type MemberQuery = {
  teamId: string;
  /** Activity window, local days (inclusive). */
  fromDay: string;
  toDay: string;
  channels: string[] | null;
  /** Members of any of the channels (OR, the default) or of every one (AND). */
  channelCombiner?: 'AND' | 'OR';
  tags: number[] | null;
  /** Members holding any of these engagement levels. */
  levels?: EngagementLevel[] | null;
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

export type MemberDataRow = MemberCountsRow & { email: string; total: number };

type Counts = { messages: number; replies: number; reactions: number };
export type MemberExportRow = Counts & {
  member_id: string;
  real_name: string;
  display_name: string;
  email: string;
};
/** A member's activity in one channel (and local day, `day`; null when not split by day). */
export type BreakdownRow = MemberExportRow & { day: string | null; channel_id: string; channel_name: string };

const SORT_SQL: Record<MemberSortField, SQL> = {
  real_name: sql`lower(m.real_name)`,
  // Blank display names sort by the real name: the table shows that name in their place (as Home does).
  display_name: sql`lower(coalesce(nullif(m.display_name, ''), m.real_name))`,
  email: sql`lower(m.email)`,
  messages: sql`coalesce(a.messages, 0)`,
  reactions: sql`coalesce(a.reactions, 0)`,
  replies: sql`coalesce(a.replies, 0)`,
  activity: sql`coalesce(a.messages + a.replies + a.reactions, 0)`,
  last_active: sql`m.last_active_at`,
  join_time: sql`m.joined_at`,
};

const OPS: Record<Operator, SQL> = { '>': sql`>`, '<': sql`<`, '=': sql`=` };

/** A `like` pattern matching `s` anywhere (its wildcards escaped; the field separator of search_text dropped). */
const likePattern = (s: string) => `%${s.replaceAll('\u001f', '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The activity rollup of the window, per member (rollups only, never raw messages): whole months and edge
 * days of the per-member rollups when every channel counts; per member, channel and day when narrowed.
 */
async function activityCte(db: Db, q: MemberQuery, scope: MemberScope, reading?: Reading): Promise<SQL> {
  const source = q.channels
    ? sql`select member_id, sum(messages)::int as messages, sum(replies)::int as replies,
        sum(reactions)::int as reactions from activity_daily where team_id = ${q.teamId}
        and channel_id = any(${sql.param(q.channels)}::text[]) and day >= ${q.fromDay}::date
        and day <= ${q.toDay}::date${scopeCondition(scope)} group by member_id`
    : await memberTotalsSource(db, q.teamId, q.fromDay, q.toDay, scope, reading);
  return sql`act as (${source})`;
}

/** Above this many, summing everyone's rollups is cheaper than looking members up one by one. */
const FEW_CANDIDATES = 2000;

/**
 * When search, tags, a join/leave window or chosen ids narrow the list to a few members, their ids: the
 * activity is then summed for them alone. Null when nothing narrows it (or too little).
 */
async function candidates(db: Db, q: MemberQuery, few = FEW_CANDIDATES): Promise<{ ids: string[] } | null> {
  if (!q.search && !q.tags && !q.levels && !q.base && !q.memberIds) return null;
  const r = await typedResult<{
    member_id: string;
  }>(
    db,
    sql`select m.member_id from ${slackMembers} m
    where ${conditions({ ...q, activity: null }, null)} limit ${few + 1}`,
  );
  return r.rows.length > few ? null : { ids: r.rows.map((x) => x.member_id) };
}

/**
 * The filter as SQL over `m` (members) and `a` (activity). With chosen ids (the members the other filters
 * already picked) only the activity filter is added; with a slice of the id order, every filter and the slice.
 */
function conditions(q: MemberQuery, scope: MemberScope): SQL {
  const where: SQL[] = [sql`m.team_id = ${q.teamId}`, sql`not m.is_bot`];
  if (scope && 'ids' in scope)
    return sql`${sql.join([...where, ...activityWhere(q)], sql` and `)}${scopeCondition(scope, sql`m.member_id`)}`;
  if (q.memberIds) where.push(sql`m.member_id = any(${sql.param(q.memberIds)}::text[])`);
  if (q.search) {
    const p = likePattern(q.search);
    // Case-insensitive substring of real name, display name or e-mail (search_text holds them lower-cased).
    where.push(sql`m.search_text like lower(${p})`);
  }
  if (q.channels && q.channelCombiner === 'AND')
    // The members of every channel, found once from the channels' rows (a per-member count probed 50,000 times).
    where.push(sql`m.member_id in (select cm.member_id from ${channelMembers} cm
      where cm.team_id = ${q.teamId} and cm.channel_id = any(${sql.param(q.channels)}::text[])
      group by cm.member_id having count(*) = ${new Set(q.channels).size})`);
  else if (q.channels)
    where.push(sql`exists (select 1 from ${channelMembers} cm where cm.team_id = m.team_id
      and cm.member_id = m.member_id and cm.channel_id = any(${sql.param(q.channels)}::text[]))`);
  if (q.tags)
    where.push(sql`exists (select 1 from ${memberTags} mt where mt.team_id = m.team_id
      and mt.member_id = m.member_id and mt.tag_id = any(${sql.param(q.tags)}::int[]))`);
  if (q.levels)
    where.push(sql`exists (select 1 from ${memberLevels} ml where ml.team_id = m.team_id
      and ml.member_id = m.member_id and ml.level = any(${sql.param(q.levels)}::text[]))`);
  if (q.base) {
    const b = q.base;
    const window = b.fromTs
      ? sql`e.at >= ${b.fromTs.toISOString()}::timestamptz and e.at <= ${b.toTs!.toISOString()}::timestamptz`
      : sql`e.day >= ${b.fromDay!}::date and e.day <= ${b.toDay!}::date`;
    where.push(sql`exists (select 1 from ${memberEvents} e where e.team_id = m.team_id
      and e.member_id = m.member_id and e.kind = ${b.kind} and ${window})`);
  }
  where.push(...activityWhere(q));
  return sql`${sql.join(where, sql` and `)}${scopeCondition(scope, sql`m.member_id`)}`;
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

/** The member columns of a page's rows (`m`), after the narrow ranking chose them. */
const DETAILS = sql`m.member_id, m.real_name, m.display_name, coalesce(m.email, '') as email, m.avatar_url, m.is_admin,
  m.deleted, (extract(epoch from m.joined_at) * 1000000)::bigint::text as join_time,
  (extract(epoch from m.last_active_at) * 1000000)::bigint::text as last_active`;

type Ranked = {
  member_id: string;
  messages: number;
  replies: number;
  reactions: number;
  total: number;
  /** How many of the matches left the workspace (deactivated or deleted in Slack). */
  left_count: number;
};

/**
 * Sorts by a member's own column (no activity in the key): a page of them, with no activity condition, is the
 * column's order walked for the page alone (see profilePage). All but the last activity have an index in that
 * order (workspace-data/table.ts).
 */
const PROFILE_SORTS: ReadonlySet<MemberSortField> = new Set([
  'real_name',
  'display_name',
  'email',
  'join_time',
  'last_active',
]);

/** Profile sorts whose key may be missing (null): listed after every member with one, either way. */
const NULLABLE_SORTS: ReadonlySet<MemberSortField> = new Set(['email', 'join_time', 'last_active']);

export type MembersRepoOptions = {
  /** false: every page is ranked with the activity of all matches (the general path; tests compare with it). */
  fastPaths?: boolean;
  /**
   * Up to this many members picked by search, tags, a join/leave window or chosen ids are ranked alone (their
   * activity read by id) rather than through a fast path, which would walk past every other member to find
   * them; 2,000 by default (tests lower it to reach the fast paths with filters on a small workspace).
   */
  fewCandidates?: number;
  /**
   * How many slices of the member id order a whole-workspace page is ranked in, side by side on separate
   * connections (PostgreSQL: one per core it can give a request). 1 ranks in one query (PGlite: one connection).
   */
  slices?: number;
  /** Workspaces with fewer members are ranked in one query (slicing pays on big ones); 5,000 by default. */
  sliceFromMembers?: number;
};

/** A slice's ranking returns at most this many rows: deeper pages are ranked in one query. */
const SLICE_MAX_ROWS = 2000;
const CUTS_TTL_MS = 10 * 60_000;

export const membersRepo = (db: Db, opts: MembersRepoOptions = {}) => {
  const sliceCount = Math.max(1, Math.floor(opts.slices ?? 1));
  const sliceFromMembers = opts.sliceFromMembers ?? 5000;
  const fastPaths = opts.fastPaths ?? true;
  const fewCandidates = opts.fewCandidates ?? FEW_CANDIDATES;
  const cutsCache = new Map<string, { at: number; cuts: string[] | null }>();
  const refreshing = new Set<string>();

  /** Member ids splitting the workspace into `sliceCount` equal slices of the id order (null: too few members). */
  async function computeCuts(teamId: string): Promise<string[] | null> {
    const counted = await typedResult<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${slackMembers} where team_id = ${teamId}`,
    );
    const n = counted.rows[0]?.n ?? 0;
    if (n < Math.max(1, sliceFromMembers)) return null;
    const found: string[] = [];
    for (let i = 1; i < sliceCount; i++) {
      const r = await typedResult<{
        member_id: string;
      }>(
        db,
        sql`select member_id from ${slackMembers} where team_id = ${teamId}
        order by member_id offset ${Math.floor((n * i) / sliceCount)} limit 1`,
      );
      const id = r.rows[0]?.member_id;
      if (id !== undefined && id !== found.at(-1)) found.push(id);
    }
    return found.length > 0 ? found : null;
  }

  /**
   * The slice cuts of a workspace. Any cuts give exact pages (fresh ones only balance the work), so cuts older
   * than a few minutes are still used while new ones are worked out in the background.
   */
  async function cuts(teamId: string): Promise<string[] | null> {
    const hit = cutsCache.get(teamId);
    if (hit) {
      if (Date.now() - hit.at > CUTS_TTL_MS && !refreshing.has(teamId)) {
        refreshing.add(teamId);
        computeCuts(teamId)
          .then((found) => cutsCache.set(teamId, { at: Date.now(), cuts: found }))
          .catch(() => {}) // the old cuts stay; the next stale read tries again
          .finally(() => refreshing.delete(teamId));
      }
      return hit.cuts;
    }
    const found = await computeCuts(teamId);
    cutsCache.set(teamId, { at: Date.now(), cuts: found });
    return found;
  }

  /**
   * Runs a ranking query in a transaction of its own without parallel workers: with them PostgreSQL sorts
   * before it counts and then probes the channel members once per member (50,000 index probes), and several
   * slices at once only contend for the same cores. The hash tables get room in memory (16 MB).
   */
  function ranking<T>(run: (tx: Tx) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('max_parallel_workers_per_gather', '0', true),
        set_config('work_mem', '16MB', true)`);
      return run(tx);
    });
  }

  /**
   * Matches `offset` to `offset + limit` of a scope in table order, as narrow rows (id, counts) with the
   * scope's match count. Slices are the parallelism: each runs on one core.
   */
  async function ranked(
    q: MemberQuery,
    scope: MemberScope,
    limit: number,
    offset: number,
    reading?: Reading,
  ): Promise<Ranked[]> {
    const act = await activityCte(db, q, scope, reading);
    return ranking(async (tx) => {
      const r = await typedResult<Ranked>(
        tx,
        sql`with ${act}
        select m.member_id, coalesce(a.messages, 0)::int as messages, coalesce(a.replies, 0)::int as replies,
          coalesce(a.reactions, 0)::int as reactions, (count(*) over ())::int as total,
          (count(*) filter (where m.deleted) over ())::int as left_count
        from ${slackMembers} m left join act a on a.member_id = m.member_id
        where ${conditions(q, scope)}
        order by ${orderBy(q)}
        limit ${limit} offset ${offset}`,
      );
      return r.rows;
    });
  }

  /** Ranked rows joined to their members' details: `offset` to `offset + limit` of them, in table order. */
  async function withDetails(
    q: MemberQuery,
    rows: Ranked[],
    counts: { total: number; left: number },
    limit: number,
    offset: number,
  ) {
    const { total, left } = counts;
    if (rows.length === 0) return { rows: [], total, left };
    const r = await typedResult<MemberDataRow>(
      db,
      sql`select ${DETAILS}, a.messages, a.replies, a.reactions, ${total}::int as total
      from unnest(${sql.param(rows.map((x) => x.member_id))}::text[], ${sql.param(rows.map((x) => x.messages))}::int[],
        ${sql.param(rows.map((x) => x.replies))}::int[], ${sql.param(rows.map((x) => x.reactions))}::int[])
        as a(member_id, messages, replies, reactions)
      join ${slackMembers} m on m.team_id = ${q.teamId} and m.member_id = a.member_id
      order by ${orderBy(q)}
      limit ${limit} offset ${offset}`,
    );
    return { rows: r.rows, total, left };
  }

  /**
   * A whole-workspace page ranked in slices of the id order at once (each on its own connection): every
   * slice ranks its own first offset+limit matches; the page is the same window of their union, ordered
   * again with the same keys, and the total is the sum of the slices' counts. Exact: the slices partition
   * the members and each member's totals come whole from one slice.
   */
  async function slicedPage(q: MemberQuery, cutIds: string[], limit: number, offset: number) {
    const bounds = [null, ...cutIds];
    const scopes = bounds.map((from, i) => ({ from, to: bounds[i + 1] ?? null }));
    // Every slice reads the range the same way: chosen once.
    const reading = await readingOf(db, q.teamId, q.fromDay, q.toDay);
    const parts = await Promise.all(scopes.map((scope) => ranked(q, scope, offset + limit, 0, reading)));
    const total = parts.reduce((n, p) => n + (p[0]?.total ?? 0), 0);
    const left = parts.reduce((n, p) => n + (p[0]?.left_count ?? 0), 0);
    return withDetails(q, parts.flat(), { total, left }, limit, offset);
  }

  /**
   * The breakdown statement: the matches' rows of the per-member, channel and day rollup within `days` (the
   * activity filter still reads the whole window), per day or summed over the days. A rollup row is already one
   * member, channel and day, so split by day it needs no grouping.
   */
  async function breakdownSql(
    q: MemberQuery,
    only: MemberScope,
    opts: { byDay: boolean; days: [string, string]; counted: boolean; limit?: number; offset?: number },
  ): Promise<SQL> {
    const act = q.activity ? sql`${await activityCte(db, q, only)}, ` : sql``;
    const joinAct = q.activity ? sql`left join act a on a.member_id = m.member_id` : sql``;
    // A page picks the matching members first, once: left to itself the planner may sort the rollup rows and
    // probe each one's channel membership until the page is full. A whole export (no limit) joins them by hash.
    const materialized = opts.limit !== undefined ? sql`materialized ` : sql``;
    const members = sql`with ${act}x as ${materialized}(
        select m.member_id, m.real_name, m.display_name, coalesce(m.email, '') as email
        from ${slackMembers} m ${joinAct} where ${conditions(q, only)})`;
    const channelsOnly = q.channels ? sql` and d.channel_id = any(${sql.param(q.channels)}::text[])` : sql``;
    const page = opts.limit !== undefined ? sql` limit ${opts.limit} offset ${opts.offset ?? 0}` : sql``;
    const total = opts.counted ? sql`, (count(*) over ())::int as total` : sql``;
    const matches = sql`join x on x.member_id = d.member_id
      left join ${slackChannels} c on c.team_id = d.team_id and c.channel_id = d.channel_id
      where d.team_id = ${q.teamId} and d.day >= ${opts.days[0]}::date and d.day <= ${opts.days[1]}::date${channelsOnly}`;
    if (opts.byDay)
      return sql`${members}
        select d.day::text as day, d.member_id, x.real_name, x.display_name, x.email, d.channel_id,
          coalesce(c.name, d.channel_id) as channel_name, d.messages, d.replies, d.reactions${total}
        from activity_daily d ${matches} and d.messages + d.replies + d.reactions > 0
        order by d.day desc, d.messages + d.replies + d.reactions desc, d.member_id, d.channel_id${page}`;
    return sql`${members}
      select null::text as day, d.member_id, x.real_name, x.display_name, x.email, d.channel_id,
        coalesce(c.name, d.channel_id) as channel_name, sum(d.messages)::int as messages,
        sum(d.replies)::int as replies, sum(d.reactions)::int as reactions${total}
      from activity_daily d ${matches}
      group by d.member_id, x.real_name, x.display_name, x.email, d.channel_id, c.name
      having sum(d.messages + d.replies + d.reactions) > 0
      order by sum(d.messages + d.replies + d.reactions) desc, d.member_id, d.channel_id${page}`;
  }

  /**
   * A page sorted by a profile column with no activity condition: the matches' ids in the list's order, the
   * page alone (the column's index walked from the start, or from its end for a descending sort, to
   * offset + limit; the planner may still filter and sort a few candidates instead), then that page's activity
   * totals for the window, read by member id. The count of matches needs no activity either: one count of
   * the members' rows (an index-only count over slack_members_people_idx when nothing else narrows them).
   * Same rows, order, totals and count as ranking every match (tests: members-list/fast-paths.test.ts).
   */
  async function profilePage(q: MemberQuery, limit: number, offset: number) {
    const where = conditions({ ...q, activity: null }, null);
    const key = SORT_SQL[q.sort.field];
    // Ascending (nulls last, ties by id) is the index order itself. Descending with nulls last is not (walked
    // backwards, the index gives nulls first and ids descending): the keyed members walked backwards, ties put
    // back in id order within each key, then the members without a key in id order.
    const limited = offset + limit;
    // The members without a key (e-mail, join time, last activity; names always have one), in the index's
    // order: the key (null for all of them) then the id.
    const keyless = NULLABLE_SORTS.has(q.sort.field)
      ? sql` union all (select 1 as part, m.member_id, null as k from ${slackMembers} m where ${where}
          and ${key} is null order by ${key}, m.member_id limit ${limited})`
      : sql``;
    const ordered =
      q.sort.direction === 'asc'
        ? sql`select m.member_id from ${slackMembers} m where ${where}
          order by ${key} asc nulls last, m.member_id limit ${limit} offset ${offset}`
        : sql`select x.member_id from (
            (select 0 as part, m.member_id, ${key} as k from ${slackMembers} m where ${where} and ${key} is not null
              order by ${key} desc, m.member_id limit ${limited})${keyless}
          ) x order by x.part, x.k desc, x.member_id limit ${limit} offset ${offset}`;
    // Side by side on PostgreSQL (two connections of the pool).
    const [page, counts] = await Promise.all([
      typedResult<{ member_id: string }>(db, ordered),
      plainCount(q),
    ]);
    return pageOf(
      q,
      page.rows.map((r) => r.member_id),
      counts,
    );
  }

  /**
   * The count of matches (and of those who left) when no activity condition applies: the members' rows alone,
   * an index-only count over slack_members_people_idx when no other filter narrows them.
   */
  async function plainCount(q: MemberQuery): Promise<{ total: number; left: number }> {
    // One process: starting parallel workers costs more than they save on a count this size.
    const c = await ranking((tx) =>
      typedResult<{ n: number; left_count: number }>(
        tx,
        sql`select count(*)::int as n, (count(*) filter (where m.deleted))::int as left_count
          from ${slackMembers} m where ${conditions({ ...q, activity: null }, null)}`,
      ),
    );
    return { total: c.rows[0]?.n ?? 0, left: c.rows[0]?.left_count ?? 0 };
  }

  /**
   * A page sorted by activity (most first) over a standing window that ends today, with no activity condition
   * and no channel filter: the members with any activity walked down the window's activity index
   * (activity_member_windows_w<N>_activity_idx) to offset + limit, each checked against the other filters; only
   * when the page reaches past them, the members with none (by member id, never listed in that index), then
   * any with a negative total (none in practice). Then the page's totals and details, as profilePage.
   */
  async function activityPage(q: MemberQuery, prefix: string, limit: number, offset: number) {
    const where = conditions({ ...q, activity: null }, null);
    const key = sql.raw(`(w.${prefix}_messages + w.${prefix}_replies + w.${prefix}_reactions)`);
    const need = offset + limit;
    const counted = plainCount(q);
    counted.catch(() => undefined); // awaited below; a failure before then is the one reported
    const keyed = (sign: SQL, n: number) =>
      typedResult<{ member_id: string }>(
        db,
        sql`select w.member_id from activity_member_windows w
          join ${slackMembers} m on m.team_id = w.team_id and m.member_id = w.member_id
          where w.team_id = ${q.teamId} and ${key} <> 0 and ${key} ${sign} 0 and ${where}
          order by ${key} desc, w.member_id limit ${n}`,
      );
    let ids = (await keyed(sql`>`, need)).rows.map((r) => r.member_id);
    if (ids.length < need) {
      const none = await typedResult<{ member_id: string }>(
        db,
        sql`select m.member_id from ${slackMembers} m where ${where} and not exists (select 1 from
          activity_member_windows w where w.team_id = m.team_id and w.member_id = m.member_id and ${key} <> 0)
          order by m.member_id limit ${need - ids.length}`,
      );
      ids = ids.concat(none.rows.map((r) => r.member_id));
    }
    if (ids.length < need)
      ids = ids.concat((await keyed(sql`<`, need - ids.length)).rows.map((r) => r.member_id));
    return pageOf(q, ids.slice(offset), await counted);
  }

  /** The page's members (`ids`, in order) with their activity in the window and their details. */
  async function pageOf(q: MemberQuery, ids: string[], counts: { total: number; left: number }) {
    if (ids.length === 0) return { rows: [], ...counts };
    const r = await typedResult<MemberDataRow>(
      db,
      sql`with ${await activityCte(db, q, { ids })}
      select ${DETAILS}, coalesce(a.messages, 0)::int as messages, coalesce(a.replies, 0)::int as replies,
        coalesce(a.reactions, 0)::int as reactions, ${counts.total}::int as total
      from ${slackMembers} m left join act a on a.member_id = m.member_id
      where m.team_id = ${q.teamId} and m.member_id = any(${sql.param(ids)}::text[])
      order by ${orderBy(q)}`,
    );
    return { rows: r.rows, ...counts };
  }

  async function count(q: MemberQuery, scope: MemberScope): Promise<{ total: number; left: number }> {
    const r = await typedResult<{ n: number; left_count: number }>(
      db,
      sql`with ${await activityCte(db, q, scope)}
      select count(*)::int as n, (count(*) filter (where m.deleted))::int as left_count
      from ${slackMembers} m left join act a on a.member_id = m.member_id
      where ${conditions(q, scope)}`,
    );
    return { total: r.rows[0]?.n ?? 0, left: r.rows[0]?.left_count ?? 0 };
  }

  return {
    /**
     * One page of filtered, sorted members with the total count of matches. The matches are counted and
     * ranked as narrow rows (id, sort key, counts); only the page's rows are then joined to their details.
     * A few candidates (search, tags, join/leave, chosen ids) are ranked alone; the whole workspace is
     * ranked in slices at once when the options allow it.
     */
    async page(
      q: MemberQuery,
      limit: number,
      offset: number,
    ): Promise<{ rows: MemberDataRow[]; total: number; left: number }> {
      const only = await candidates(db, q, fewCandidates);
      if (fastPaths && !only && !q.activity) {
        if (PROFILE_SORTS.has(q.sort.field)) return profilePage(q, limit, offset);
        if (!q.channels && q.sort.field === 'activity' && q.sort.direction === 'desc') {
          const reading = await readingOf(db, q.teamId, q.fromDay, q.toDay);
          if (reading.kind === 'window' && reading.prefix.startsWith('w'))
            return activityPage(q, reading.prefix, limit, offset);
        }
      }
      // Channel filters read the per-channel rollup through its channel index, which a slice cannot bound.
      if (!only && !q.channels && sliceCount > 1 && offset + limit <= SLICE_MAX_ROWS) {
        const cutIds = await cuts(q.teamId);
        if (cutIds && cutIds.length > 0) return slicedPage(q, cutIds, limit, offset);
      }
      const rows = await ranked(q, only, limit, offset);
      const counts = rows[0]
        ? { total: rows[0].total, left: rows[0].left_count }
        : offset > 0
          ? await count(q, only)
          : { total: 0, left: 0 };
      return withDetails(q, rows, counts, rows.length, 0);
    },

    /**
     * Every match as a statement of (member_id, messages, replies, reactions), for a caller that stores the
     * matches in the database (a bucket run) without carrying them through the process.
     */
    async matchesQuery(q: MemberQuery): Promise<SQL> {
      const only = await candidates(db, q);
      return sql`with ${await activityCte(db, q, only)}
        select m.member_id, coalesce(a.messages, 0)::int as messages, coalesce(a.replies, 0)::int as replies,
          coalesce(a.reactions, 0)::int as reactions
        from ${slackMembers} m left join act a on a.member_id = m.member_id
        where ${conditions(q, only)}`;
    },

    /** Name, e-mail and window counts of every match, in table order (CSV exports). */
    async exportRows(q: MemberQuery): Promise<MemberExportRow[]> {
      const only = await candidates(db, q);
      const r = await typedResult<MemberExportRow>(
        db,
        sql`with ${await activityCte(db, q, only)}
        select m.member_id, m.real_name, m.display_name, coalesce(m.email, '') as email,
          coalesce(a.messages, 0)::int as messages, coalesce(a.replies, 0)::int as replies,
          coalesce(a.reactions, 0)::int as reactions
        from ${slackMembers} m left join act a on a.member_id = m.member_id
        where ${conditions(q, only)}
        order by ${orderBy(q)}`,
      );
      return r.rows;
    },

    /**
     * The matches' activity split by channel (and by local day with `byDay`), from the per-member, channel and
     * day rollup: one row per member, channel (and day) with any activity in the window, most recent day first,
     * then most active. `total` is the count of all such rows; without `limit` every row comes back.
     */
    async breakdown(
      q: MemberQuery,
      opts: { byDay: boolean; limit?: number; offset?: number },
    ): Promise<{ rows: BreakdownRow[]; total: number }> {
      const only = await candidates(db, q);
      const r = await typedResult<BreakdownRow & { total: number }>(
        db,
        await breakdownSql(q, only, { ...opts, days: [q.fromDay, q.toDay], counted: true }),
      );
      return { rows: r.rows, total: r.rows[0]?.total ?? 0 };
    },

    /**
     * Every row of `breakdown(q, { byDay: true })`, in its order, as text the database writes: `line` (an
     * expression over the row's columns day, member_id, real_name, display_name, email, channel_id, channel_name,
     * messages, replies, reactions, as `r`) for each row, joined, two weeks at a time. An export of every member
     * over months streams from its first days on, no query sorts the whole window, and no row is parsed here.
     */
    async *breakdownTextByDays(q: MemberQuery, line: SQL, daysPerQuery = 14): AsyncGenerator<string> {
      const only = await candidates(db, q);
      const windows: [string, string][] = [];
      for (let to = q.toDay; to >= q.fromDay; to = addDays(to, -daysPerQuery)) {
        const from = addDays(to, -(daysPerQuery - 1));
        windows.push([from < q.fromDay ? q.fromDay : from, to]);
      }
      const textOf = async (days: [string, string]) => {
        const rows = await breakdownSql(q, only, { byDay: true, days, counted: false });
        const r = await ranking((tx) =>
          typedResult<{ text: string | null }>(
            tx,
            sql`select string_agg(${line}, '' order by r.day desc, r.messages + r.replies + r.reactions desc,
                r.member_id, r.channel_id) as text
              from (${rows}) r`,
          ),
        );
        return r.rows[0]?.text ?? null;
      };
      // The next two weeks are asked for while this one is being written: the database and the response
      // work side by side. A reader that stops early leaves at most one query to finish unread.
      let next = windows.length ? textOf(windows[0]!) : null;
      for (let i = 0; next; i++) {
        const current = next;
        next = i + 1 < windows.length ? textOf(windows[i + 1]!) : null;
        next?.catch(() => undefined);
        const text = await current;
        if (text) yield text;
      }
    },
  };
};
