import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows } from '../../db/sql.ts';
import { slackMembers } from '../workspace-data/table.ts';
import { activityMemberCohortWeeks, activityMemberDaily } from './table.ts';

/** Per local join day: how many people joined (`week` null), or how many of them were active in week `week`. */
export type JoinDayRow = { day: string; week: number | null; n: number };

/**
 * Retention by join cohort, read from the member rollups and the members' join times, never from raw messages.
 * For the people (not bots, whether they left or not) whose join day, local in `timeZone`, lies in
 * fromDay..toDay: per join day the number who joined (`week` null), and per join day and week k since joining
 * (local days join day + 7k .. + 6, up to `weeks` weeks and today) the number with any message, reply or
 * reaction in it. Members with no join time are in none. The service groups join days into cohorts.
 *
 * A member's weeks come from their activity_member_cohort_weeks row (one row per member, kept by the rollups:
 * cohort-weeks.ts; the window's rows read index-only by join day) when it was computed for the member's join
 * day now and holds no day after today; otherwise
 * (no row: no activity in the window, or a join time or timezone changed since) from one short range of
 * activity_member_daily_member_idx (team, member, day), which carries the counts (INCLUDE) so it is read
 * index-only, folded into a bit per week. Each week's count is one filtered count per join day.
 */
export const joinCohortReads = (db: Db) => ({
  async joinDays(q: {
    teamId: string;
    timeZone: string;
    fromDay: string;
    toDay: string;
    weeks: number;
    today: string;
  }): Promise<JoinDayRow[]> {
    const weeks = Array.from({ length: q.weeks }, (_, k) => k);
    const rows = await typedRows<{ day: string; n: number } & Record<string, number | string>>(
      db,
      sql`with c as materialized (
          select m.member_id, (m.joined_at at time zone ${q.timeZone})::date as jd
          from ${slackMembers} m
          where m.team_id = ${q.teamId} and not m.is_bot
            and m.joined_at >= (${q.fromDay}::date::timestamp at time zone ${q.timeZone})
            and m.joined_at < ((${q.toDay}::date + 1)::timestamp at time zone ${q.timeZone})
        ),
        masks as materialized (
          select c.jd, case when w.member_id is not null and (w.last_day is null or w.last_day <= ${q.today}::date)
              then w.weeks
              else (select bit_or(1 << ((d.day - c.jd) / 7)) from ${activityMemberDaily} d
                where d.team_id = ${q.teamId} and d.member_id = c.member_id and d.day >= c.jd
                  and d.day <= least(c.jd + ${q.weeks * 7 - 1}::int, ${q.today}::date)
                  and d.messages + d.replies + d.reactions > 0) end as mask
          from c left join ${activityMemberCohortWeeks} w on w.team_id = ${q.teamId} and w.member_id = c.member_id
            and w.join_day = c.jd and w.join_day >= ${q.fromDay}::date and w.join_day <= ${q.toDay}::date
        )
        select jd::text as day, count(*)::int as n,
          ${sql.join(
            weeks.map(
              (k) =>
                sql`count(*) filter (where mask & ${sql.raw(String(1 << k))} <> 0)::int as ${sql.raw(`w${k}`)}`,
            ),
            sql`, `,
          )}
        from masks group by jd`,
    );
    return rows.flatMap((r) => [
      { day: r.day, week: null, n: r.n },
      ...weeks.map((k) => ({ day: r.day, week: k, n: Number(r[`w${k}`]) })).filter((c) => c.n > 0),
    ]);
  },
});
