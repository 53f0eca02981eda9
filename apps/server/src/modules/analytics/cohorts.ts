import type { CohortGrid, CohortPeriod, CohortRow, CohortsQuery } from '@flywheel/shared/cohorts';
import type { Db } from '../../db/client.ts';
import { addDays, daysBetween, localDay } from '../../lib/days.ts';
import { joinCohortReads } from '../activity/cohorts.ts';

/** The first local day of the week (Monday) or calendar month holding `day`. */
export function periodStart(period: CohortPeriod, day: string): string {
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** The first day of the period after the one starting on `start`. */
export function nextPeriod(period: CohortPeriod, start: string): string {
  if (period === 'week') return addDays(start, 7);
  const [y, m] = start.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

function previousPeriod(period: CohortPeriod, start: string): string {
  return periodStart(period, addDays(start, -1));
}

/**
 * Retention by join cohort (packages/shared/src/cohorts.ts has the definition): the `cohorts` periods ending
 * with the one holding `end` (today by default), oldest first, every period present (0 members: no cells).
 */
export async function joinCohortGrid(
  db: Db,
  timeZone: string,
  teamId: string,
  q: CohortsQuery,
  now = new Date(),
): Promise<CohortGrid> {
  const today = localDay(now, timeZone);
  const last = periodStart(q.period, q.end && q.end < today ? q.end : today);
  const starts = [last];
  while (starts.length < q.cohorts) starts.unshift(previousPeriod(q.period, starts[0]!));
  // Two halves of the cohorts side by side (two connections on PostgreSQL): a year of monthly cohorts is
  // tens of thousands of members, each one short index range.
  const reads = joinCohortReads(db);
  const half = Math.ceil(starts.length / 2);
  const parts = [starts.slice(0, half), starts.slice(half)].filter((p) => p.length > 0);
  const rows = (
    await Promise.all(
      parts.map((p) =>
        reads.joinDays({
          teamId,
          timeZone,
          fromDay: p[0]!,
          toDay: addDays(nextPeriod(q.period, p[p.length - 1]!), -1),
          weeks: q.weeks,
          today,
        }),
      ),
    )
  ).flat();
  const cohorts: CohortRow[] = starts.map((start) => {
    const end = addDays(nextPeriod(q.period, start), -1);
    const mine = rows.filter((r) => r.day >= start && r.day <= end);
    const joins = mine.filter((r) => r.week === null);
    const cells = Array.from({ length: q.weeks }, (_, k) => {
      // The members whose week k has begun by today.
      const eligible = joins.filter((r) => daysBetween(r.day, today) >= 7 * k).reduce((n, r) => n + r.n, 0);
      if (eligible === 0) return null;
      const active = mine.filter((r) => r.week === k).reduce((n, r) => n + r.n, 0);
      return { week: k, active, eligible, percent: Math.round((active / eligible) * 1000) / 10 };
    });
    return { start, end, members: joins.reduce((n, r) => n + r.n, 0), cells };
  });
  return { period: q.period, timezone: timeZone, today, weeks: q.weeks, cohorts };
}
