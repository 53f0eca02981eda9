import { sql } from 'drizzle-orm';
import {
  ENGAGEMENT_LEVELS,
  LEVEL_RULE,
  type EngagementLevel,
  type LevelChange,
} from '@flywheel/shared/levels';
import type { Db } from '../../db/client.ts';
import { LOCKS, xactLock } from '../../db/locks.ts';
import { typedRows, type Tx } from '../../db/sql.ts';
import { addDays, localDay } from '../../lib/days.ts';
import { backfills, slackMembers } from '../workspace-data/table.ts';
import { activityMemberDaily, memberLevelChanges, memberLevels, memberLevelsAnchor } from './table.ts';

/**
 * Engagement levels (the rules: packages/shared/src/levels.ts, docs/product/members.md). Computed per workspace
 * from the per-member daily rollups in one statement, on the workspace's local day; a member whose level differs
 * from the stored one gets the new level (since that day) and a row in the history.
 *
 * When: once the local day changes, and again each hour of the day (a member who posts or joins today moves then),
 * by `activity.levels.refresh` (jobs.ts). One process at a time per workspace (LOCKS.levels), so each change is
 * recorded once with several workers.
 */

/** How stale a day's levels may grow before the hourly recompute. */
export const LEVELS_REFRESH_MS = 60 * 60 * 1000;
/** After this many changes in one recompute, the levels' table statistics are refreshed. */
const ANALYZE_AFTER = 1000;

export type LevelTransition = { memberId: string; from: EngagementLevel; to: EngagementLevel };

const R = LEVEL_RULE;
/** A rule's constant, inlined (a date minus an untyped parameter is ambiguous to PostgreSQL). */
const n = (x: number) => sql.raw(String(Math.trunc(x)));

/**
 * Recomputes a workspace's levels for local day `day` (the caller holds LOCKS.levels in `tx`). Answers how many
 * members changed, and the transitions of members who already had a level (a first level is not a transition:
 * a workspace connected today does not fire "becomes Slipping" for everyone already quiet).
 */
export async function recomputeLevels(
  tx: Tx,
  teamId: string,
  timeZone: string,
  day: string,
  now = new Date(),
): Promise<{ changed: number; transitions: LevelTransition[] }> {
  const d = sql`${day}::date`;
  // Members who left or are bots hold no level.
  await tx.execute(sql`delete from ${memberLevels} l using ${slackMembers} m
    where l.team_id = ${teamId} and m.team_id = l.team_id and m.member_id = l.member_id and (m.deleted or m.is_bot)`);
  const rows = await typedRows<{
    member_id: string;
    from_level: EngagementLevel | null;
    to_level: EngagementLevel;
  }>(
    tx,
    // One pass over the member rollups of the last 55 days (the widest the rules look back): per member the last
    // active day, the active days and posts of the last 28, and the active days of the 28 ending on the last
    // active day. A subquery rather than a CTE, so the planner sees its size and hashes the join to the members.
    sql`with computed as (
      select m.member_id, case
        when m.joined_at is not null and (m.joined_at at time zone ${timeZone})::date > ${d} - ${n(R.newcomerDays)}
          then 'newcomer'
        when g.last_day > ${d} - ${n(R.recentDays)} and g.active >= ${n(R.championActiveDays)}
          and g.posts >= ${n(R.championPosts)} then 'champion'
        when g.last_day > ${d} - ${n(R.recentDays)} and g.active >= ${n(R.regularActiveDays)} then 'regular'
        when g.last_day <= ${d} - ${n(R.recentDays)} and g.last_day > ${d} - ${n(R.windowDays)}
          and g.active_before >= ${n(R.regularActiveDays)} then 'slipping'
        when g.last_day > ${d} - ${n(R.windowDays)} then 'casual'
        else 'dormant' end as level
      from ${slackMembers} m
      left join (
        select member_id, max(last_day) as last_day,
          count(*) filter (where day > ${d} - ${n(R.windowDays)}) as active,
          coalesce(sum(posts) filter (where day > ${d} - ${n(R.windowDays)}), 0) as posts,
          count(*) filter (where day > last_day - ${n(R.windowDays)}) as active_before
        from (
          select member_id, day, messages + replies as posts, max(day) over (partition by member_id) as last_day
          from ${activityMemberDaily}
          where team_id = ${teamId} and day > ${d} - ${n(2 * R.windowDays - 1)} and day <= ${d}
            and messages + replies + reactions > 0
        ) x
        group by member_id
      ) g on g.member_id = m.member_id
      where m.team_id = ${teamId} and not m.is_bot and not m.deleted
    ), changed as (
      select c.member_id, l.level as from_level, c.level as to_level from computed c
      left join ${memberLevels} l on l.team_id = ${teamId} and l.member_id = c.member_id
      where l.level is distinct from c.level
    ), logged as (
      insert into ${memberLevelChanges} (team_id, member_id, from_level, to_level, day, at)
      select ${teamId}, member_id, from_level, to_level, ${d}, ${now.toISOString()}::timestamptz from changed
      order by member_id
    ), saved as (
      insert into ${memberLevels} (team_id, member_id, level, since)
      select ${teamId}, member_id, to_level, ${d} from changed
      on conflict (team_id, member_id) do update set level = excluded.level, since = excluded.since
    )
    select member_id, from_level, to_level from changed`,
  );
  // Many new rows (a first computation, a third of a workspace slipping at once): fresh statistics now, rather
  // than the Members list's level filter planned on an empty table until autovacuum (which PGlite lacks) looks.
  if (rows.length >= ANALYZE_AFTER) await tx.execute(sql`analyze ${memberLevels}`);
  await tx.execute(sql`insert into ${memberLevelsAnchor} (team_id, day, computed_at) values (${teamId}, ${d}, ${now.toISOString()}::timestamptz)
    on conflict (team_id) do update set day = excluded.day, computed_at = excluded.computed_at`);
  return {
    changed: rows.length,
    transitions: rows
      .filter((r) => r.from_level !== null)
      .map((r) => ({ memberId: r.member_id, from: r.from_level!, to: r.to_level })),
  };
}

/**
 * Recomputes the levels of every workspace whose levels are not of its local today, or older than an hour, and
 * whose history import is not running. Answers each recomputed workspace's transitions.
 *
 * `daysAhead` moves the local day the levels are computed for that many days past today, as if the days had
 * passed with no activity; changes are still recorded at `now`. Only the end-to-end suite sets it, through the
 * test clock (DEV_CLOCK, lib/dev-clock.ts), which production refuses.
 */
export async function refreshLevels(
  db: Db,
  timezones: Map<string, string>,
  now = new Date(),
  force = false,
  daysAhead = 0,
): Promise<Map<string, LevelTransition[]>> {
  const out = new Map<string, LevelTransition[]>();
  if (timezones.size === 0) return out;
  const anchors = new Map(
    (
      await typedRows<{ team_id: string; day: string; computed_at: Date | string }>(
        db,
        sql`select team_id, day::text as day, computed_at from ${memberLevelsAnchor}
          where team_id = any(${sql.param([...timezones.keys()])}::text[])`,
      )
    ).map((a) => [a.team_id, a]),
  );
  // A workspace whose history import still runs holds too little of its past for levels: computed then, nearly
  // every member would be Dormant, and the recompute after the import would record a change for each of them
  // (firing every Member Level workflow at once). Its first levels wait for the import's end (the next tick).
  const importing = new Set(
    (
      await typedRows<{ team_id: string }>(
        db,
        sql`select team_id from ${backfills}
          where team_id = any(${sql.param([...timezones.keys()])}::text[]) and status = 'running'`,
      )
    ).map((r) => r.team_id),
  );
  const stale = (a: { day: string; computed_at: Date | string } | undefined, today: string) =>
    force || !a || a.day !== today || now.getTime() - new Date(a.computed_at).getTime() >= LEVELS_REFRESH_MS;
  for (const [teamId, tz] of timezones) {
    if (importing.has(teamId)) continue;
    const today = addDays(localDay(now, tz), daysAhead);
    if (!stale(anchors.get(teamId), today)) continue;
    const transitions = await db.transaction(async (tx) => {
      await xactLock(tx, LOCKS.levels(teamId));
      // Another process may have recomputed while this one waited.
      const [a] = await typedRows<{ day: string; computed_at: Date | string }>(
        tx,
        sql`select day::text as day, computed_at from ${memberLevelsAnchor} where team_id = ${teamId}`,
      );
      if (!stale(a, today)) return null;
      return (await recomputeLevels(tx, teamId, tz, today, now)).transitions;
    });
    if (transitions) out.set(teamId, transitions);
  }
  return out;
}

/** The reads: a member's level and history, a page's levels, the counts per level. */
export const levelsRepo = (db: Db) => ({
  async ofMembers(teamId: string, memberIds: string[]): Promise<Map<string, EngagementLevel>> {
    if (memberIds.length === 0) return new Map();
    const rows = await typedRows<{ member_id: string; level: EngagementLevel }>(
      db,
      sql`select member_id, level from ${memberLevels}
        where team_id = ${teamId} and member_id = any(${sql.param(memberIds)}::text[])`,
    );
    return new Map(rows.map((r) => [r.member_id, r.level]));
  },

  async ofMember(
    teamId: string,
    memberId: string,
  ): Promise<{ level: EngagementLevel | null; since: string | null; history: LevelChange[] }> {
    const [now] = await typedRows<{ level: EngagementLevel; since: string }>(
      db,
      sql`select level, since::text as since from ${memberLevels} where team_id = ${teamId} and member_id = ${memberId}`,
    );
    const history = await typedRows<{
      from_level: EngagementLevel | null;
      to_level: EngagementLevel;
      day: string;
    }>(
      db,
      sql`select from_level, to_level, day::text as day from ${memberLevelChanges}
        where team_id = ${teamId} and member_id = ${memberId} order by id desc limit 50`,
    );
    return {
      level: now?.level ?? null,
      since: now?.since ?? null,
      history: history.map((h) => ({ from: h.from_level, to: h.to_level, day: h.day })),
    };
  },

  async counts(
    teamId: string,
  ): Promise<{ data: { level: EngagementLevel; count: number }[]; day: string | null }> {
    const rows = await typedRows<{ level: EngagementLevel; count: number }>(
      db,
      sql`select level, count(*)::int as count from ${memberLevels} where team_id = ${teamId} group by level`,
    );
    const [a] = await typedRows<{ day: string }>(
      db,
      sql`select day::text as day from ${memberLevelsAnchor} where team_id = ${teamId}`,
    );
    const by = new Map(rows.map((r) => [r.level, r.count]));
    return {
      data: ENGAGEMENT_LEVELS.map((level) => ({ level, count: by.get(level) ?? 0 })),
      day: a?.day ?? null,
    };
  },
});

/**
 * Members whose level became `level` from another one in (`from`, `to`] (a first level is not a change), each
 * change once with its id: the Member Level trigger's firings (workflows).
 */
export async function levelChangesBetween(
  tx: Tx,
  teamId: string,
  level: EngagementLevel,
  from: Date,
  to: Date,
): Promise<{ id: number; member_id: string }[]> {
  return await typedRows<{ id: number; member_id: string }>(
    tx,
    sql`select c.id::int as id, c.member_id from ${memberLevelChanges} c
      where c.team_id = ${teamId} and c.to_level = ${level} and c.from_level is not null
        and c.at > ${from.toISOString()}::timestamptz and c.at <= ${to.toISOString()}::timestamptz
      order by c.id limit 10000`,
  );
}

/**
 * Members whose level changed on the local days [fromDay, toDay] from one of `from` to one of `to` (the weekly
 * digest's slipping and returning members): how many, and the latest `limit` with their names.
 */
export async function levelChangesOfDays(
  runner: Tx,
  teamId: string,
  days: { fromDay: string; toDay: string },
  change: { from: readonly string[]; to: readonly string[] },
  limit: number,
): Promise<{ count: number; members: { member_id: string; name: string }[] }> {
  const matching = sql`select c.member_id,
        coalesce(nullif(m.display_name, ''), nullif(m.real_name, ''), m.member_id) as name, max(c.at) as at
      from ${memberLevelChanges} c join ${slackMembers} m on m.team_id = c.team_id and m.member_id = c.member_id
      where c.team_id = ${teamId} and c.day between ${days.fromDay}::date and ${days.toDay}::date
        and c.from_level = any(${`{${change.from.join(',')}}`}::text[])
        and c.to_level = any(${`{${change.to.join(',')}}`}::text[])
      group by c.member_id, name`;
  const [count] = await typedRows<{ n: number }>(runner, sql`select count(*)::int as n from (${matching}) q`);
  const members = await typedRows<{ member_id: string; name: string }>(
    runner,
    sql`select member_id, name from (${matching}) q order by at desc, member_id limit ${limit}`,
  );
  return { count: count?.n ?? 0, members };
}
