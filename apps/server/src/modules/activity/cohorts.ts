import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows } from '../../db/sql.ts';
import { slackMembers } from '../workspace-data/table.ts';

/** Per local join day: how many people joined (`week` null), or how many of them were active in week `week`. */
export type JoinDayRow = { day: string; week: number | null; n: number };

/**
 * Retention by join cohort, read from the member rollups (activity_member_daily) and the members' join times,
 * never from raw messages. For the people (not bots, whether they left or not) whose join day, local in
 * `timeZone`, lies in fromDay..toDay: per join day the number who joined, and per join day and week k since
 * joining (local days join day + 7k .. + 6, up to `weeks` weeks and today) the number with any message, reply
 * or reaction in it. Members with no join time are in none. The service groups join days into cohorts.
 *
 * Each member's weeks are one short range of activity_member_daily_member_idx (team, member, day), which carries
 * the counts (INCLUDE, this module's migration "cohorts") so it is read index-only, folded into a bit per week.
 */
export const joinCohortReads = (db: Db) => ({
  joinDays: (q: {
    teamId: string;
    timeZone: string;
    fromDay: string;
    toDay: string;
    weeks: number;
    today: string;
  }) =>
    typedRows<JoinDayRow>(
      db,
      sql`with c as materialized (
          select m.member_id, (m.joined_at at time zone ${q.timeZone})::date as jd
          from ${slackMembers} m
          where m.team_id = ${q.teamId} and not m.is_bot
            and m.joined_at >= (${q.fromDay}::date::timestamp at time zone ${q.timeZone})
            and m.joined_at < ((${q.toDay}::date + 1)::timestamp at time zone ${q.timeZone})
        ),
        masks as materialized (
          select c.jd, (select bit_or(1 << ((d.day - c.jd) / 7)) from activity_member_daily d
              where d.team_id = ${q.teamId} and d.member_id = c.member_id and d.day >= c.jd
                and d.day <= least(c.jd + ${q.weeks * 7 - 1}::int, ${q.today}::date)
                and d.messages + d.replies + d.reactions > 0) as mask
          from c
        )
        select jd::text as day, null::int as week, count(*)::int as n from masks group by jd
        union all
        select jd::text as day, k as week, count(*)::int as n
        from masks, generate_series(0, ${q.weeks - 1}::int) k
        where mask & (1 << k) <> 0 group by jd, k`,
    ),
});
