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
 * year-long window reads ~12 rows per member instead of ~365. Each part is one range of its primary key
 * (which carries the counts), so PostgreSQL reads it as an index-only scan. `members` narrows it to those.
 */
export function memberWindowRows(
  teamId: string,
  fromDay: string,
  toDay: string,
  members?: string[] | null,
): SQL {
  const { fullFrom, fullTo } = splitWindow(fromDay, toDay);
  const cols = sql`member_id, messages, replies, reactions`;
  const only = members ? sql` and member_id = any(${sql.param(members)}::text[])` : sql``;
  const days = (from: string, to: string) =>
    sql`select ${cols} from activity_member_daily
      where team_id = ${teamId} and day >= ${from}::date and day <= ${to}::date${only}`;
  if (fullFrom === fullTo) return days(fromDay, toDay);
  const parts = [
    sql`select ${cols} from activity_member_monthly
      where team_id = ${teamId} and month >= ${fullFrom}::date and month < ${fullTo}::date${only}`,
  ];
  if (fromDay < fullFrom) parts.push(days(fromDay, dayBefore(fullFrom)));
  if (fullTo <= toDay) parts.push(days(fullTo, toDay));
  return sql.join(parts, sql` union all `);
}

const dayBefore = (day: string) => fmt(new Date(toDate(day).getTime() - DAY_MS));
