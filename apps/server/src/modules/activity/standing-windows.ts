import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  memberWindowRows,
  planCost,
  scopeCondition,
  signedWindowRows,
  windowPlan,
  type MemberScope,
  type RowCosts,
  type SignedRange,
} from './member-window.ts';
import { addDays, daysBetween } from '../../lib/days.ts';
import { STANDING_WINDOWS } from './table.ts';
import type { Tx } from '../../db/sql.ts';
import { LOCKS, xactLock } from '../../db/locks.ts';
import { localDay } from '../../lib/days.ts';
import { typedResult } from '../../db/sql.ts';

/**
 * The standing windows (activity_member_windows): per member, the totals of the last 7, 14, 90 and 365
 * local days ending on the team's anchor day (`w`) and of the same number of days just before (`p`).
 *
 * Exact by construction: every ingestion batch adds its per-member, per-day deltas to the windows that
 * contain the day (under the ingestion lock, in the batch's transaction), and when the local day changes the
 * team's windows are rebuilt from the member rollups under the same lock. A read uses them only when the
 * anchor is the window's end day; otherwise it sums the rollups (never a stale answer).
 */

type Counts = { messages: number; replies: number; reactions: number };
type Side = 'w' | 'p';
const METRICS = ['messages', 'replies', 'reactions'] as const;

/** Every window column in table order: w7_messages, w7_replies, w7_reactions, p7_messages, ... */
export const WINDOW_COLUMNS = STANDING_WINDOWS.flatMap((n) =>
  (['w', 'p'] as const).flatMap((side) => METRICS.map((m) => `${side}${n}_${m}`)),
);

/** The column prefix (`w365`, `p7`, ...) holding the window from..to when the anchor is `anchor`, else null. */
export function standingPrefix(anchor: string, fromDay: string, toDay: string): string | null {
  const length = daysBetween(fromDay, toDay) + 1;
  if (!(STANDING_WINDOWS as readonly number[]).includes(length)) return null;
  if (toDay === anchor) return `w${length}`;
  if (toDay === addDays(anchor, -length)) return `p${length}`;
  return null;
}

/** Which window columns a day's activity falls in, for a team anchored on `anchor`. */
export function windowsOfDay(anchor: string, day: string): string[] {
  const back = daysBetween(day, anchor);
  const out: string[] = [];
  if (back < 0) return out;
  for (const n of STANDING_WINDOWS) {
    if (back < n) out.push(`w${n}`);
    else if (back < 2 * n) out.push(`p${n}`);
  }
  return out;
}

async function anchors(tx: Tx | Db, teamIds: string[]): Promise<Map<string, string>> {
  if (teamIds.length === 0) return new Map();
  const r = await typedResult<{ team_id: string; day: string }>(
    tx,
    sql`select team_id, day::text as day from activity_window_anchor where team_id = any(${sql.param(teamIds)}::text[])`,
  );
  return new Map(r.rows.map((a) => [a.team_id, a.day]));
}

/**
 * Adds per-member, per-day deltas of one ingestion batch to the standing windows. Runs in the batch's
 * transaction after the ingestion lock (so a rebuild is either wholly before or wholly after it).
 */
export async function addToStandingWindows(
  tx: Tx,
  rows: (Counts & { teamId: string; day: string; memberId: string })[],
): Promise<void> {
  const anchorOf = await anchors(tx, [...new Set(rows.map((r) => r.teamId))]);
  if (anchorOf.size === 0) return;
  const index = new Map(WINDOW_COLUMNS.map((c, i) => [c, i]));
  const byMember = new Map<string, { teamId: string; memberId: string; v: number[] }>();
  for (const r of rows) {
    const anchor = anchorOf.get(r.teamId);
    if (!anchor) continue;
    const prefixes = windowsOfDay(anchor, r.day);
    if (prefixes.length === 0) continue;
    const key = `${r.teamId}|${r.memberId}`;
    let e = byMember.get(key);
    if (!e)
      byMember.set(key, (e = { teamId: r.teamId, memberId: r.memberId, v: WINDOW_COLUMNS.map(() => 0) }));
    for (const p of prefixes) for (const m of METRICS) e.v[index.get(`${p}_${m}`)!]! += r[m];
  }
  const live = [...byMember.entries()]
    .filter(([, e]) => e.v.some((x) => x !== 0))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, e]) => e);
  const cols = sql.raw(WINDOW_COLUMNS.join(', '));
  const sets = sql.raw(WINDOW_COLUMNS.map((c) => `${c} = a.${c} + excluded.${c}`).join(', '));
  for (let i = 0; i < live.length; i += 1000) {
    const chunk = live.slice(i, i + 1000);
    const arrays = [
      sql`${sql.param(chunk.map((e) => e.teamId))}::text[]`,
      sql`${sql.param(chunk.map((e) => e.memberId))}::text[]`,
      ...WINDOW_COLUMNS.map((_, c) => sql`${sql.param(chunk.map((e) => e.v[c]!))}::int[]`),
    ];
    await tx.execute(sql`insert into activity_member_windows as a (team_id, member_id, ${cols})
      select * from unnest(${sql.join(arrays, sql`, `)})
      on conflict (team_id, member_id) do update set ${sets}`);
  }
}

/**
 * Rebuilds a team's standing windows from the member rollups so they end on `anchor`. The caller holds the
 * ingestion lock in `tx`, so no batch adds to the windows meanwhile.
 */
export async function rebuildStandingWindows(tx: Tx, teamId: string, anchor: string): Promise<void> {
  const sources: SQL[] = [];
  const picks: SQL[] = [];
  for (const n of STANDING_WINDOWS) {
    const windows: [Side, string, string][] = [
      ['w', addDays(anchor, -(n - 1)), anchor],
      ['p', addDays(anchor, -(2 * n - 1)), addDays(anchor, -n)],
    ];
    for (const [side, from, to] of windows) {
      const tag = `${side}${n}`;
      sources.push(
        sql`select ${tag}::text as w, member_id, messages, replies, reactions from (${memberWindowRows(teamId, from, to)}) s`,
      );
      for (const m of METRICS) picks.push(sql.raw(`coalesce(sum(${m}) filter (where w = '${tag}'), 0)::int`));
    }
  }
  await tx.execute(sql`delete from activity_member_windows where team_id = ${teamId}`);
  await tx.execute(sql`insert into activity_member_windows (team_id, member_id, ${sql.raw(WINDOW_COLUMNS.join(', '))})
    select ${teamId}, member_id, ${sql.join(picks, sql`, `)}
    from (${sql.join(sources, sql` union all `)}) x group by member_id`);
  await tx.execute(sql`insert into activity_window_anchor (team_id, day, built_at) values (${teamId}, ${anchor}::date, now())
    on conflict (team_id) do update set day = excluded.day, built_at = excluded.built_at`);
  // Fresh statistics, so the planner joins tens of thousands of rebuilt rows by hashing, not row by row.
  await tx.execute(sql`analyze activity_member_windows`);
}

/**
 * The cheapest way to total a range from a standing window (anchored on `anchor`) and rollup pieces: the
 * window, plus the days of the range outside it, less the days of the window outside the range. Null when
 * summing the range's months and days alone is estimated cheaper. `windowRows`: rows of one window.
 */
export function windowAndPieces(
  anchor: string,
  fromDay: string,
  toDay: string,
  costs: RowCosts & { windowRows: number },
): { prefix: string; pieces: SignedRange[] } | null {
  let best: { prefix: string; pieces: SignedRange[]; cost: number } | null = null;
  const direct = planCost(windowPlan(fromDay, toDay), costs);
  for (const n of STANDING_WINDOWS)
    for (const [side, wFrom, wTo] of [
      ['w', addDays(anchor, -(n - 1)), anchor],
      ['p', addDays(anchor, -(2 * n - 1)), addDays(anchor, -n)],
    ] as const) {
      if (wTo < fromDay || wFrom > toDay) continue;
      const pieces: SignedRange[] = [];
      if (fromDay < wFrom) pieces.push({ from: fromDay, to: addDays(wFrom, -1), sign: 1 });
      if (fromDay > wFrom) pieces.push({ from: wFrom, to: addDays(fromDay, -1), sign: -1 });
      if (toDay > wTo) pieces.push({ from: addDays(wTo, 1), to: toDay, sign: 1 });
      if (toDay < wTo) pieces.push({ from: addDays(toDay, 1), to: wTo, sign: -1 });
      const cost =
        costs.windowRows + pieces.reduce((c, p) => c + planCost(windowPlan(p.from, p.to), costs), 0);
      if (cost < direct && (!best || cost < best.cost)) best = { prefix: `${side}${n}`, pieces, cost };
    }
  return best && { prefix: best.prefix, pieces: best.pieces };
}

/**
 * Row estimates for a team from its active members per day (activity_team_daily) between two days: a day
 * reads its active members; a month at most the sum of its days and at most five times its busiest day; a
 * standing window (one row per member active in the last two years, ~twice the busiest month) costs three
 * busiest months, as its rows are wide (24 counts, read from the table, not from a covering key). Only the
 * choice of reading depends on them, never an answer.
 */
async function rowCosts(db: Db, teamId: string, from: string, to: string) {
  const r = await typedResult<{ day: string; n: number }>(
    db,
    sql`select day::text as day, active_members as n from activity_team_daily
    where team_id = ${teamId} and day >= ${from}::date and day <= ${to}::date and active_members > 0`,
  );
  const days = new Map(r.rows.map((x) => [x.day, Number(x.n)]));
  const months = new Map<string, { sum: number; max: number }>();
  for (const [day, n] of days) {
    const m = months.get(`${day.slice(0, 8)}01`) ?? { sum: 0, max: 0 };
    m.sum += n;
    m.max = Math.max(m.max, n);
    months.set(`${day.slice(0, 8)}01`, m);
  }
  const month = (m: string) => {
    const x = months.get(m);
    return x ? Math.min(x.sum, 5 * x.max) : 0;
  };
  const all = [...days.values()].reduce((a, b) => a + b, 0);
  const busiest = Math.max(0, ...[...months.keys()].map(month));
  return { day: (d: string) => days.get(d) ?? 0, month, windowRows: Math.min(all, 3 * busiest) };
}

/** How a range's per-member totals are read: a standing window, one corrected by pieces, or the rollups. */
export type Reading =
  | { kind: 'window'; prefix: string }
  | { kind: 'near'; prefix: string; pieces: SignedRange[] }
  | { kind: 'rollups' };

/**
 * A range that is a standing window reads it alone; one near a standing window reads that window corrected by
 * the days between their edges when that is estimated cheaper (a year ending yesterday: the year ending today,
 * less today, plus the day before it); any other sums its months and days, as do chosen members (read from
 * their own keys).
 */
export async function readingOf(
  db: Db,
  teamId: string,
  fromDay: string,
  toDay: string,
  scope?: MemberScope,
): Promise<Reading> {
  const anchor = (await anchors(db, [teamId])).get(teamId);
  if (!anchor) return { kind: 'rollups' };
  const prefix = standingPrefix(anchor, fromDay, toDay);
  if (prefix) return { kind: 'window', prefix };
  const oldest = addDays(anchor, -729);
  if ((scope && 'ids' in scope) || toDay < oldest || fromDay > anchor) return { kind: 'rollups' };
  const costs = await rowCosts(
    db,
    teamId,
    fromDay < oldest ? fromDay : oldest,
    toDay > anchor ? toDay : anchor,
  );
  const near = windowAndPieces(anchor, fromDay, toDay, costs);
  return near ? { kind: 'near', ...near } : { kind: 'rollups' };
}

/**
 * Per-member totals of a window of local days (member_id, messages, replies, reactions; one row per member,
 * zero rows possible), read as `readingOf` chooses (or as `chosen` says). `scope` narrows it to chosen
 * members or a slice of the id order.
 */
export async function memberTotalsSource(
  db: Db,
  teamId: string,
  fromDay: string,
  toDay: string,
  scope?: MemberScope,
  chosen?: Reading,
): Promise<SQL> {
  const reading = chosen ?? (await readingOf(db, teamId, fromDay, toDay, scope));
  const windowRows = (p: string) =>
    sql`select member_id, ${sql.raw(METRICS.map((m) => `${p}_${m} as ${m}`).join(', '))}
      from activity_member_windows where team_id = ${teamId}${scopeCondition(scope)}`;
  if (reading.kind === 'window') return windowRows(reading.prefix);
  const rows =
    reading.kind === 'near'
      ? sql`${windowRows(reading.prefix)} union all ${signedWindowRows(teamId, reading.pieces, scope)}`
      : memberWindowRows(teamId, fromDay, toDay, scope);
  return sql`select member_id, sum(messages)::int as messages, sum(replies)::int as replies,
      sum(reactions)::int as reactions from (${rows}) w group by member_id`;
}

/**
 * Moves every team whose standing windows do not end on its local today (or have never been built) to
 * today. Returns the teams rebuilt. Cheap when nothing is due: one small read.
 */
export async function refreshStandingWindows(
  db: Db,
  timezones: Map<string, string>,
  now = new Date(),
): Promise<string[]> {
  const current = await anchors(db, [...timezones.keys()]);
  const rebuilt: string[] = [];
  for (const [teamId, tz] of timezones) {
    const today = localDay(now, tz);
    if (current.get(teamId) === today) continue;
    await db.transaction(async (tx) => {
      await xactLock(tx, LOCKS.ingest);
      await rebuildStandingWindows(tx, teamId, today);
    });
    rebuilt.push(teamId);
  }
  return rebuilt;
}
