import { sql, type SQL } from 'drizzle-orm';
import { MAX_COHORT_WEEKS } from '@flywheel/shared/cohorts';
import type { Tx } from '../../db/sql.ts';
import { workspaces } from '../workspaces/table.ts';
import { slackMembers } from '../workspace-data/table.ts';
import { activityMemberCohortWeeks, activityMemberDaily } from './table.ts';

/**
 * Keeps activity_member_cohort_weeks (table.ts): per member, the weeks of the first MAX_COHORT_WEEKS after the
 * local join day with any activity, as retention by join cohort (cohorts.ts) reads them. A row holds what
 * activity_member_daily holds for its own join_day at all times: it is computed again whenever a member-day
 * inside its window (or inside the window of the member's join day now) starts or stops counting.
 */

/** Days in the window: MAX_COHORT_WEEKS weeks from the join day. */
export const COHORT_WINDOW_DAYS = MAX_COHORT_WEEKS * 7;

/** The member's local join day now (`s`: slack_members, `ws`: workspaces). */
const JOIN_DAY = sql`(s.joined_at at time zone ws.timezone)::date`;

/** Computes the rows of the members `x` (team_id, member_id, jd) from activity_member_daily and writes them. */
const upsertFrom = (
  x: SQL,
) => sql`insert into ${activityMemberCohortWeeks} as a (team_id, member_id, join_day, weeks, last_day)
  select x.team_id, x.member_id, x.jd, coalesce(d.weeks, 0), d.last_day
  from ${x}, lateral (select bit_or(1 << ((d.day - x.jd) / 7)) as weeks, max(d.day) as last_day
    from ${activityMemberDaily} d where d.team_id = x.team_id and d.member_id = x.member_id
      and d.day >= x.jd and d.day < x.jd + ${COHORT_WINDOW_DAYS}::int
      and d.messages + d.replies + d.reactions > 0) d
  on conflict (team_id, member_id) do update set join_day = excluded.join_day, weeks = excluded.weeks,
    last_day = excluded.last_day`;

/**
 * After member-days started or stopped counting (rollups.ts): the rows of those members whose window holds the
 * day, computed again for their join day now; a row whose member has no join day now is dropped (the reader
 * then goes to activity_member_daily).
 */
export async function memberDaysCrossed(
  tx: Tx,
  crossed: { teamId: string; memberId: string; day: string }[],
): Promise<void> {
  if (crossed.length === 0) return;
  const v = sql`unnest(${sql.param(crossed.map((c) => c.teamId))}::text[], ${sql.param(crossed.map((c) => c.memberId))}::text[],
    ${sql.param(crossed.map((c) => c.day))}::date[]) as v(team_id, member_id, day)`;
  await tx.execute(sql`delete from ${activityMemberCohortWeeks} w using ${v}
    where w.team_id = v.team_id and w.member_id = v.member_id
      and v.day >= w.join_day and v.day < w.join_day + ${COHORT_WINDOW_DAYS}::int
      and not exists (select 1 from ${slackMembers} s join ${workspaces} ws on ws.team_id = s.team_id
        where s.team_id = w.team_id and s.member_id = w.member_id and s.joined_at is not null)`);
  await tx.execute(
    upsertFrom(sql`(select distinct s.team_id, s.member_id, ${JOIN_DAY} as jd
      from ${v} join ${slackMembers} s on s.team_id = v.team_id and s.member_id = v.member_id
      join ${workspaces} ws on ws.team_id = s.team_id
      left join ${activityMemberCohortWeeks} w on w.team_id = s.team_id and w.member_id = s.member_id
      where s.joined_at is not null
        and ((v.day >= ${JOIN_DAY} and v.day < ${JOIN_DAY} + ${COHORT_WINDOW_DAYS}::int)
          or (v.day >= w.join_day and v.day < w.join_day + ${COHORT_WINDOW_DAYS}::int))) x`),
  );
}

/**
 * Every row of a workspace computed again (for data written into activity_member_daily by other means: the
 * bench's synthetic rollups). The migration that added the table ran the same for every workspace.
 */
export async function rebuildCohortWeeks(tx: Tx, teamId: string): Promise<void> {
  await tx.execute(sql`delete from ${activityMemberCohortWeeks} where team_id = ${teamId}`);
  await tx.execute(
    upsertFrom(sql`(select s.team_id, s.member_id, ${JOIN_DAY} as jd
      from ${slackMembers} s join ${workspaces} ws on ws.team_id = s.team_id
      where s.team_id = ${teamId} and s.joined_at is not null) x`),
  );
}
