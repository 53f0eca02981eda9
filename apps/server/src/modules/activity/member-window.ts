import { sql, type SQL } from 'drizzle-orm';
import { addDays, daysBetween } from '../../lib/days.ts';

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
  const dayAfterTo = addDays(toDay, 1);
  const fullTo = dayAfterTo === monthStart(dayAfterTo) ? dayAfterTo : monthStart(toDay);
  return fullTo > fullFrom ? { fullFrom, fullTo } : { fullFrom, fullTo: fullFrom };
}

const monthEnd = (day: string) => addDays(nextMonthStart(day), -1);
const dayBefore = (day: string) => addDays(day, -1);
const dayAfter = (day: string) => addDays(day, 1);
const length = (from: string, to: string) => (to < from ? 0 : daysBetween(from, to) + 1);

type Range = [from: string, to: string];
/** How a window is read: whole months, plus day ranges, minus day ranges (months read whole, less their outside days). */
export type WindowPlan = { monthRanges: Range[]; plusDays: Range[]; minusDays: Range[] };

/**
 * The cheapest reading of a window from the two rollups: every whole month inside it from the monthly one;
 * each partial month at its edges either as its days inside the window or, when fewer days lie outside, as
 * the whole month less those outside days. So no window reads more than ~15 daily rows per member per edge.
 */
export function windowPlan(fromDay: string, toDay: string): WindowPlan {
  const plan: WindowPlan = { monthRanges: [], plusDays: [], minusDays: [] };
  const partial = (a: string, b: string) => {
    const ms = monthStart(a);
    const me = monthEnd(a);
    if (length(ms, dayBefore(a)) + length(dayAfter(b), me) < length(a, b)) {
      plan.monthRanges.push([ms, ms]);
      if (a > ms) plan.minusDays.push([ms, dayBefore(a)]);
      if (b < me) plan.minusDays.push([dayAfter(b), me]);
    } else plan.plusDays.push([a, b]);
  };
  const { fullFrom, fullTo } = splitWindow(fromDay, toDay);
  if (fullFrom === fullTo && monthStart(fromDay) === monthStart(toDay)) {
    if (fromDay === monthStart(fromDay) && toDay === monthEnd(toDay))
      plan.monthRanges.push([fromDay, fromDay]);
    else partial(fromDay, toDay);
    return plan;
  }
  if (fromDay < fullFrom) partial(fromDay, monthEnd(fromDay));
  if (fullTo > fullFrom) plan.monthRanges.push([fullFrom, monthStart(dayBefore(fullTo))]);
  if (fullTo <= toDay && toDay >= fullFrom) partial(fullTo, toDay);
  return plan;
}

/**
 * Which members a read covers: chosen ids, or a slice of the id order (`from` included, `to` excluded; null
 * is open), or all of them (null).
 */
export type MemberScope = { ids: string[] } | { from: string | null; to: string | null } | null;

/** SQL conditions (each led by `and`) limiting `column` to the scope. */
export function scopeCondition(scope: MemberScope | undefined, column: SQL = sql`member_id`): SQL {
  if (!scope) return sql``;
  if ('ids' in scope) return sql` and ${column} = any(${sql.param(scope.ids)}::text[])`;
  return sql`${scope.from !== null ? sql` and ${column} >= ${scope.from}` : sql``}${
    scope.to !== null ? sql` and ${column} < ${scope.to}` : sql``
  }`;
}

const monthsOf = ([a, b]: Range): string[] => {
  const out: string[] = [];
  for (let m = a; m <= b; m = nextMonthStart(m)) out.push(m);
  return out;
};
const daysOf = ([a, b]: Range): string[] => {
  const out: string[] = [];
  for (let d = a; d <= b; d = addDays(d, 1)) out.push(d);
  return out;
};

/** A range of local days (both included) whose rows are added (1) or taken away (-1). */
export type SignedRange = { from: string; to: string; sign: 1 | -1 };

/** Estimated rollup rows of a day and of a month (what reading them costs). */
export type RowCosts = { day(day: string): number; month(monthStart: string): number };

/** Every day one row and every month five (about the five days' worth of members active that month). */
export const UNIFORM_COSTS: RowCosts = { day: () => 1, month: () => 5 };

/** Estimated rows read by a plan. */
export function planCost(plan: WindowPlan, costs: RowCosts): number {
  let n = 0;
  for (const r of plan.monthRanges) for (const m of monthsOf(r)) n += costs.month(m);
  for (const r of [...plan.plusDays, ...plan.minusDays]) for (const d of daysOf(r)) n += costs.day(d);
  return n;
}

/**
 * Per-member activity rows of a window (member_id, messages, replies, reactions; several rows per member,
 * some negative — sum them), read as `windowPlan` says, so a year-long window reads ~12 rows per member
 * instead of ~365. Each part is one range of a primary key that carries the counts (INCLUDE), which
 * PostgreSQL reads as an index-only scan. `scope` narrows it to some members; for a slice of the id order,
 * every month and day is read as its own key range, so the slice's bounds limit the index scan itself.
 */
export function memberWindowRows(teamId: string, fromDay: string, toDay: string, scope?: MemberScope): SQL {
  return signedWindowRows(teamId, [{ from: fromDay, to: toDay, sign: 1 }], scope);
}

/** The rows of several ranges, each added or taken away as its sign says (see memberWindowRows). */
export function signedWindowRows(teamId: string, ranges: SignedRange[], scope?: MemberScope): SQL {
  const only = scopeCondition(scope);
  const sliced = !!scope && !('ids' in scope);
  const plus = sql`member_id, messages, replies, reactions`;
  const minus = sql`member_id, -messages, -replies, -reactions`;
  const months = (r: Range) =>
    sliced
      ? monthsOf(r).map((m) => sql`month = ${m}::date`)
      : [sql`month >= ${r[0]}::date and month <= ${r[1]}::date`];
  const days = (r: Range) =>
    sliced
      ? daysOf(r).map((d) => sql`day = ${d}::date`)
      : [sql`day >= ${r[0]}::date and day <= ${r[1]}::date`];
  const parts: SQL[] = [];
  for (const { from, to, sign } of ranges) {
    const plan = windowPlan(from, to);
    const [up, down] = sign === 1 ? [plus, minus] : [minus, plus];
    for (const when of plan.monthRanges.flatMap(months))
      parts.push(sql`select ${up} from activity_member_monthly where team_id = ${teamId} and ${when}${only}`);
    for (const [rs, cols] of [
      [plan.plusDays, up],
      [plan.minusDays, down],
    ] as const)
      for (const when of rs.flatMap(days))
        parts.push(
          sql`select ${cols} from activity_member_daily where team_id = ${teamId} and ${when}${only}`,
        );
  }
  return sql.join(parts, sql` union all `);
}
