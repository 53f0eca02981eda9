import { sql, type SQL } from 'drizzle-orm';

const DAY_MS = 86_400_000;
const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const fmt = (d: Date) => d.toISOString().slice(0, 10);
const monthStart = (day: string) => `${day.slice(0, 8)}01`;
const nextMonthStart = (day: string) => {
  const d = toDate(monthStart(day));
  return fmt(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)));
};

/**
 * How a window of local days (both included) splits into whole months and the days at its edges:
 * months in [fullFrom, fullTo) are whole; the days before fullFrom and from fullTo on are not.
 * `fullFrom === fullTo` when no whole month lies inside.
 */
export function splitWindow(fromDay: string, toDay: string): { fullFrom: string; fullTo: string } {
  const fullFrom = fromDay === monthStart(fromDay) ? fromDay : nextMonthStart(fromDay);
  const dayAfterTo = fmt(new Date(toDate(toDay).getTime() + DAY_MS));
  const fullTo = dayAfterTo === monthStart(dayAfterTo) ? dayAfterTo : monthStart(toDay);
  return fullTo > fullFrom ? { fullFrom, fullTo } : { fullFrom, fullTo: fullFrom };
}

/**
 * Per-member activity rows of a window (member_id, messages, replies, reactions; several rows per member —
 * sum them): whole months from activity_member_monthly, the edge days from activity_member_daily, so a
 * year-long window reads ~12 rows per member instead of ~365.
 */
export function memberWindowRows(teamId: string, fromDay: string, toDay: string): SQL {
  const { fullFrom, fullTo } = splitWindow(fromDay, toDay);
  const cols = sql`member_id, messages, replies, reactions`;
  if (fullFrom === fullTo) {
    return sql`select ${cols} from activity_member_daily
      where team_id = ${teamId} and day >= ${fromDay}::date and day <= ${toDay}::date`;
  }
  return sql`select ${cols} from activity_member_monthly
      where team_id = ${teamId} and month >= ${fullFrom}::date and month < ${fullTo}::date
    union all
    select ${cols} from activity_member_daily
      where team_id = ${teamId} and ((day >= ${fromDay}::date and day < ${fullFrom}::date)
        or (day >= ${fullTo}::date and day <= ${toDay}::date))`;
}
