import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/sql.ts';
import { memberDaysCrossed } from './cohort-weeks.ts';
import { addToStandingWindows } from './standing-windows.ts';
import { typedResult } from '../../db/sql.ts';
import { slackMembers } from '../workspace-data/table.ts';

type Counts = { messages: number; replies: number; reactions: number };
export type Slot = { day: string; hour: number };

/** Adds counts into a map entry keyed by `key`, creating it from `base`. */
function bump<T extends Counts>(map: Map<string, T>, key: string, base: () => T, d: Partial<Counts>) {
  let row = map.get(key);
  if (!row) map.set(key, (row = base()));
  row.messages += d.messages ?? 0;
  row.replies += d.replies ?? 0;
  row.reactions += d.reactions ?? 0;
}

const nonZero = (r: Counts) => r.messages !== 0 || r.replies !== 0 || r.reactions !== 0;
// Sorted by key, so two transactions upserting overlapping rows lock them in the same order.
const sorted = <T>(map: Map<string, T>) =>
  [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);

/** One multi-row upsert adding counts into a rollup table, in chunks. */
async function upsertCounts<T extends Counts>(
  tx: Tx,
  rows: T[],
  table: string,
  keys: { name: string; type: string; of: (r: T) => string | number }[],
) {
  const live = rows.filter(nonZero);
  for (let i = 0; i < live.length; i += 1000) {
    const chunk = live.slice(i, i + 1000);
    const arrays: SQL[] = [
      ...keys.map((k) => sql`${sql.param(chunk.map(k.of))}::${sql.raw(k.type)}[]`),
      sql`${sql.param(chunk.map((r) => r.messages))}::int[]`,
      sql`${sql.param(chunk.map((r) => r.replies))}::int[]`,
      sql`${sql.param(chunk.map((r) => r.reactions))}::int[]`,
    ];
    const keyList = sql.raw(keys.map((k) => k.name).join(', '));
    await tx.execute(sql`
      insert into ${sql.raw(table)} as a (${keyList}, messages, replies, reactions)
      select * from unnest(${sql.join(arrays, sql`, `)})
      on conflict (${keyList}) do update set messages = a.messages + excluded.messages,
        replies = a.replies + excluded.replies, reactions = a.reactions + excluded.reactions`);
  }
}

/**
 * Adds per member and day counts into activity_member_daily and keeps activity_team_daily's count of active
 * members (total > 0) per day: a member-day whose total crosses zero in either direction moves it by one (and
 * may change the member's cohort weeks: cohort-weeks.ts).
 */
async function upsertMemberDays(
  tx: Tx,
  rows: (Counts & { teamId: string; day: string; memberId: string })[],
): Promise<void> {
  const live = rows.filter(nonZero);
  const change = new Map<string, { teamId: string; day: string; n: number }>();
  const crossed: { teamId: string; memberId: string; day: string }[] = [];
  for (let i = 0; i < live.length; i += 1000) {
    const chunk = live.slice(i, i + 1000);
    const delta = new Map(
      chunk.map((r) => [`${r.teamId}|${r.day}|${r.memberId}`, r.messages + r.replies + r.reactions]),
    );
    const r = await typedResult<{ team_id: string; day: string; member_id: string; total: number }>(
      tx,
      sql`
      insert into activity_member_daily as a (team_id, day, member_id, messages, replies, reactions)
      select * from unnest(${sql.param(chunk.map((r) => r.teamId))}::text[], ${sql.param(chunk.map((r) => r.day))}::date[],
        ${sql.param(chunk.map((r) => r.memberId))}::text[], ${sql.param(chunk.map((r) => r.messages))}::int[],
        ${sql.param(chunk.map((r) => r.replies))}::int[], ${sql.param(chunk.map((r) => r.reactions))}::int[])
      on conflict (team_id, day, member_id) do update set messages = a.messages + excluded.messages,
        replies = a.replies + excluded.replies, reactions = a.reactions + excluded.reactions
      returning a.team_id, a.day::text as day, a.member_id, a.messages + a.replies + a.reactions as total`,
    );
    for (const row of r.rows) {
      const key = `${row.team_id}|${row.day}|${row.member_id}`;
      const before = row.total - (delta.get(key) ?? 0);
      const n = (row.total > 0 ? 1 : 0) - (before > 0 ? 1 : 0);
      if (n === 0) continue;
      crossed.push({ teamId: row.team_id, memberId: row.member_id, day: row.day });
      const dayKey = `${row.team_id}|${row.day}`;
      const c = change.get(dayKey) ?? { teamId: row.team_id, day: row.day, n: 0 };
      c.n += n;
      change.set(dayKey, c);
    }
  }
  await memberDaysCrossed(tx, crossed);
  const days = sorted(change).filter((c) => c.n !== 0);
  if (days.length === 0) return;
  await tx.execute(sql`
    insert into activity_team_daily as a (team_id, day, active_members)
    select * from unnest(${sql.param(days.map((c) => c.teamId))}::text[], ${sql.param(days.map((c) => c.day))}::date[],
      ${sql.param(days.map((c) => c.n))}::int[])
    on conflict (team_id, day) do update set active_members = a.active_members + excluded.active_members`);
}

/**
 * Collects rollup changes during a batch and writes them inside the batch's transaction: activity per team,
 * local day, member and channel (activity_daily), and the coarser rollups analytics read — per team and
 * local hour, per channel and day, per member and day and month — plus keyword counts per day, and last-active
 * times.
 */
export function rollupBuffer() {
  type Fine = Counts & { teamId: string; day: string; hour: number; memberId: string; channelId: string };
  const fine = new Map<string, Fine>();
  const keywords = new Map<string, { teamId: string; day: string; term: string; count: number }>();
  const lastActive = new Map<string, { teamId: string; memberId: string; at: Date }>();

  return {
    add(teamId: string, at: Slot, memberId: string, channelId: string, d: Partial<Counts>) {
      const key = `${teamId}|${at.day}|${String(at.hour).padStart(2, '0')}|${memberId}|${channelId}`;
      bump(
        fine,
        key,
        () => ({
          teamId,
          day: at.day,
          hour: at.hour,
          memberId,
          channelId,
          messages: 0,
          replies: 0,
          reactions: 0,
        }),
        d,
      );
    },
    /** Counts (sign 1) or uncounts (-1) the keywords of one message on its day. */
    keywords(teamId: string, day: string, terms: string[], sign: 1 | -1) {
      for (const term of terms) {
        const key = `${teamId}|${day}|${term}`;
        const row = keywords.get(key) ?? { teamId, day, term, count: 0 };
        row.count += sign;
        keywords.set(key, row);
      }
    },
    active(teamId: string, memberId: string, at: Date) {
      const key = `${teamId}|${memberId}`;
      const prev = lastActive.get(key);
      if (!prev || prev.at < at) lastActive.set(key, { teamId, memberId, at });
    },
    async flush(tx: Tx) {
      type ByDay = Counts & { teamId: string; day: string };
      const daily = new Map<string, ByDay & { memberId: string; channelId: string }>();
      const hourly = new Map<string, ByDay & { hour: number }>();
      const channel = new Map<string, ByDay & { channelId: string }>();
      const member = new Map<string, ByDay & { memberId: string }>();
      const monthly = new Map<string, Counts & { teamId: string; month: string; memberId: string }>();
      for (const r of fine.values()) {
        const zero = { messages: 0, replies: 0, reactions: 0 };
        bump(
          daily,
          `${r.teamId}|${r.day}|${r.memberId}|${r.channelId}`,
          () => ({ ...zero, teamId: r.teamId, day: r.day, memberId: r.memberId, channelId: r.channelId }),
          r,
        );
        bump(
          hourly,
          `${r.teamId}|${r.day}|${String(r.hour).padStart(2, '0')}`,
          () => ({ ...zero, teamId: r.teamId, day: r.day, hour: r.hour }),
          r,
        );
        bump(
          channel,
          `${r.teamId}|${r.day}|${r.channelId}`,
          () => ({ ...zero, teamId: r.teamId, day: r.day, channelId: r.channelId }),
          r,
        );
        bump(
          member,
          `${r.teamId}|${r.day}|${r.memberId}`,
          () => ({ ...zero, teamId: r.teamId, day: r.day, memberId: r.memberId }),
          r,
        );
        const month = `${r.day.slice(0, 8)}01`;
        bump(
          monthly,
          `${r.teamId}|${month}|${r.memberId}`,
          () => ({ ...zero, teamId: r.teamId, month, memberId: r.memberId }),
          r,
        );
      }
      const team = { name: 'team_id', type: 'text', of: (r: { teamId: string }) => r.teamId };
      const day = { name: 'day', type: 'date', of: (r: { day: string }) => r.day };
      await upsertCounts(tx, sorted(daily), 'activity_daily', [
        team,
        day,
        { name: 'member_id', type: 'text', of: (r) => r.memberId },
        { name: 'channel_id', type: 'text', of: (r) => r.channelId },
      ]);
      await upsertCounts(tx, sorted(hourly), 'activity_team_hourly', [
        team,
        day,
        { name: 'hour', type: 'int', of: (r) => r.hour },
      ]);
      await upsertCounts(tx, sorted(channel), 'activity_channel_daily', [
        team,
        day,
        { name: 'channel_id', type: 'text', of: (r) => r.channelId },
      ]);
      const memberDays = sorted(member);
      await upsertMemberDays(tx, memberDays);
      await addToStandingWindows(tx, memberDays);
      await upsertCounts(tx, sorted(monthly), 'activity_member_monthly', [
        team,
        { name: 'month', type: 'date', of: (r) => r.month },
        { name: 'member_id', type: 'text', of: (r) => r.memberId },
      ]);

      const terms = sorted(keywords).filter((k) => k.count !== 0);
      for (let i = 0; i < terms.length; i += 1000) {
        const chunk = terms.slice(i, i + 1000);
        await tx.execute(sql`
          insert into keyword_daily as k (team_id, day, term, count)
          select * from unnest(${sql.param(chunk.map((k) => k.teamId))}::text[], ${sql.param(chunk.map((k) => k.day))}::date[],
            ${sql.param(chunk.map((k) => k.term))}::text[], ${sql.param(chunk.map((k) => k.count))}::int[])
          on conflict (team_id, day, term) do update set count = k.count + excluded.count`);
      }

      const actives = sorted(lastActive);
      for (let i = 0; i < actives.length; i += 1000) {
        const chunk = actives.slice(i, i + 1000);
        await tx.execute(sql`
          update ${slackMembers} s set last_active_at = v.at
          from unnest(${sql.param(chunk.map((a) => a.teamId))}::text[], ${sql.param(chunk.map((a) => a.memberId))}::text[],
            ${sql.param(chunk.map((a) => a.at.toISOString()))}::timestamptz[]) as v(team_id, member_id, at)
          where s.team_id = v.team_id and s.member_id = v.member_id
            and (s.last_active_at is null or s.last_active_at < v.at)`);
      }
      fine.clear();
      keywords.clear();
      lastActive.clear();
    },
  };
}

export type RollupBuffer = ReturnType<typeof rollupBuffer>;
