import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CohortGrid } from '@flywheel/shared/cohorts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { localDay, tsToDate } from '../../lib/days.ts';
import { typedResult } from '../../db/sql.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/*
 * Retention by join cohort against an independent computation over the emulator's raw rows: its members'
 * join times and its messages, replies and reactions, in the workspace's timezone. Seed 30's owner (who
 * installs, so whose timezone the workspace takes) is in Europe/Berlin, and 230 days of history always hold
 * a change of daylight-saving time (the last Sunday of March or of October).
 */

const DAY_S = 86400;
const DAYS = 230;
let env: SlackTestEnv;
let teamId: string;
let otherTeam: string;
let token: string;
let otherToken: string;
let tz: string;
let today: string;
let startTime: number;
/** People (not bots) who joined inside the generated history: their local join day and whether they left. */
let joiners: { id: string; day: string; left: boolean }[];
/** Per member, the local days with any message, reply or reaction. */
let activeDays: Map<string, Set<string>>;

beforeAll(async () => {
  const endTime = Math.floor(Date.now() / 1000);
  startTime = endTime - DAYS * DAY_S;
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 30, members: 160, channels: 4, days: DAYS, messages: 5000, endTime },
        { seed: 31, members: 10, channels: 2, days: 3 },
      ],
    },
    { BACKFILL_DAYS: '300' },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  const owner = await signedInUser(env.t);
  const other = await signedInUser(env.t);
  token = owner.token;
  otherToken = other.token;
  expect((await installThroughOAuth(env, owner, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, other, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, token, teamId, 240_000);
  const ws = await typedResult<{ timezone: string }>(
    env.t.ctx.database.db,
    sql`select timezone from workspaces where team_id = ${teamId}`,
  );
  tz = ws.rows[0]!.timezone;
  today = localDay(new Date(), tz);
  groundTruth();
}, 300_000);
afterAll(() => env?.close());

function groundTruth() {
  const t = env.emu.truth(teamId);
  const botUser = t.install()?.botUserId;
  const visible = new Set(
    t
      .channels()
      .filter((c: any) => !c.is_im && (c.members as string[]).includes(botUser!))
      .map((c: any) => c.id as string),
  );
  const bots = new Set<string>();
  joiners = [];
  for (const m of [...t.members()] as any[]) {
    if (m.is_bot) bots.add(m.id);
    else if (m.joined_at >= startTime)
      joiners.push({
        id: m.id,
        day: localDay(new Date(m.joined_at * 1000), tz),
        left: Boolean(m.deleted_at),
      });
  }
  activeDays = new Map();
  const mark = (user: string, day: string) => {
    const days = activeDays.get(user) ?? new Set<string>();
    activeDays.set(user, days);
    days.add(day);
  };
  for (const m of [...t.messages()] as any[]) {
    if (!visible.has(m.channel) || m.deleted) continue;
    if (m.subtype && !['thread_broadcast', 'file_share', 'me_message'].includes(m.subtype)) continue;
    if (m.bot_id || !m.user || bots.has(m.user)) continue;
    const day = localDay(tsToDate(m.ts), tz);
    mark(m.user, day);
    for (const r of m.reactions ?? []) for (const u of r.users) mark(u, day);
  }
}

// Calendar arithmetic of the test's own, on noon UTC so no offset can move a day.
const at = (day: string) => new Date(`${day}T12:00:00Z`);
const plus = (day: string, n: number) =>
  new Date(at(day).getTime() + n * DAY_S * 1000).toISOString().slice(0, 10);
const diff = (a: string, b: string) => Math.round((at(b).getTime() - at(a).getTime()) / (DAY_S * 1000));
function startOf(period: 'week' | 'month', day: string) {
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  const monday = (at(day).getUTCDay() + 6) % 7;
  return plus(day, -monday);
}
function endOf(period: 'week' | 'month', start: string) {
  if (period === 'week') return plus(start, 6);
  const d = at(start);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0, 12)).toISOString().slice(0, 10);
}

/** The grid computed from the raw rows alone. */
function expected(period: 'week' | 'month', cohorts: number, weeks: number, end = today): CohortGrid {
  const starts = [startOf(period, end)];
  while (starts.length < cohorts) starts.unshift(startOf(period, plus(starts[0]!, -1)));
  return {
    period,
    timezone: tz,
    today,
    weeks,
    cohorts: starts.map((start) => {
      const last = endOf(period, start);
      const members = joiners.filter((j) => j.day >= start && j.day <= last);
      const cells = Array.from({ length: weeks }, (_, k) => {
        const reached = members.filter((j) => diff(j.day, today) >= 7 * k);
        if (reached.length === 0) return null;
        const active = reached.filter((j) =>
          [...(activeDays.get(j.id) ?? [])].some(
            (d) => diff(j.day, d) >= 7 * k && diff(j.day, d) <= 7 * k + 6,
          ),
        ).length;
        return {
          week: k,
          active,
          eligible: reached.length,
          percent: Math.round((active / reached.length) * 1000) / 10,
        };
      });
      return { start, end: last, members: members.length, cells };
    }),
  };
}

async function get(query: string, as = token, team = teamId) {
  const res = await env.t.app.inject({
    method: 'GET',
    url: `/api/v0/analytics/cohorts/${team}${query}`,
    headers: bearer(as),
  });
  return { status: res.statusCode, body: res.json() as any };
}

/** The last local day before which the workspace's UTC offset changed, inside the history. */
function lastOffsetChange(): string {
  const offset = (day: string) => {
    const noon = at(day);
    const local = new Date(noon.toLocaleString('en-US', { timeZone: tz }));
    const utc = new Date(noon.toLocaleString('en-US', { timeZone: 'UTC' }));
    return local.getTime() - utc.getTime();
  };
  const first = localDay(new Date(startTime * 1000), tz);
  for (let d = today; d > first; d = plus(d, -1)) if (offset(d) !== offset(plus(d, -1))) return d;
  throw new Error(`no change of UTC offset in ${tz} between ${first} and ${today}`);
}

describe('retention by join cohort', () => {
  it('the workspace keeps daylight-saving time and enough members joined inside the history', () => {
    expect(tz).toBe('Europe/Berlin');
    expect(joiners.length).toBeGreaterThan(40);
  });

  it('weekly cohorts (the default: 12 cohorts, 12 weeks) equal the raw rows', async () => {
    const r = await get('');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual(expected('week', 12, 12));
    // The newest cohort has reached week 0 only; rows are oldest first.
    expect(r.body.data.cohorts[11].cells.slice(1).every((c: unknown) => c === null)).toBe(true);
    expect(r.body.data.cohorts[0].start < r.body.data.cohorts[11].start).toBe(true);
  });

  it('monthly cohorts equal the raw rows, members who left counted in their cohort', async () => {
    const r = await get('?period=month&cohorts=9&weeks=10');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const want = expected('month', 9, 10);
    expect(r.body.data).toEqual(want);
    const total = want.cohorts.reduce((n, c) => n + c.members, 0);
    // Every joiner of the history is in one of these nine months (230 days < 9 months)...
    expect(total).toBe(joiners.filter((j) => j.day >= want.cohorts[0]!.start).length);
    // ...and some cell is neither empty nor full.
    const cells = want.cohorts.flatMap((c) => c.cells).filter((c) => c !== null);
    expect(cells.some((c) => c.active > 0 && c.active < c.eligible)).toBe(true);
  });

  it('weekly cohorts around a change of daylight-saving time equal the raw rows', async () => {
    const change = lastOffsetChange();
    const end = plus(change, 28) > today ? today : plus(change, 28);
    const r = await get(`?period=week&cohorts=8&weeks=6&end=${end}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual(expected('week', 8, 6, end));
    // The cohorts' weeks run across the change, with members in them.
    const spanning = (r.body.data as CohortGrid).cohorts.filter(
      (c) => c.start < change && plus(c.end, 7 * 6) >= change && c.members > 0,
    );
    expect(spanning.length).toBeGreaterThan(0);
    // And the month of the change.
    const m = await get(`?period=month&cohorts=1&weeks=12&end=${change}`);
    expect(m.body.data).toEqual(expected('month', 1, 12, change));
  });

  it('members with no join date (joined before the history) are in no cohort', async () => {
    const r = await get('?period=month&cohorts=12&weeks=1');
    const counted = (r.body.data as CohortGrid).cohorts.reduce((n, c) => n + c.members, 0);
    expect(counted).toBe(joiners.length);
  });

  it('bad input is a 400 naming the field', async () => {
    for (const [query, field] of [
      ['?period=day', 'period'],
      ['?cohorts=13', 'cohorts'],
      ['?cohorts=0', 'cohorts'],
      ['?weeks=13', 'weeks'],
      ['?weeks=1.5', 'weeks'],
      ['?weeks=abc', 'weeks'],
      ['?end=2026-02-30', 'end'],
      ['?end=2999-01-01', 'end'],
    ] as const) {
      const r = await get(query);
      expect([query, r.status]).toEqual([query, 400]);
      expect(r.body.message, query).toContain(field);
    }
  });

  it("another admin's workspace is refused", async () => {
    expect((await get('', otherToken)).status).toBe(403);
    expect((await get('', token, otherTeam)).status).toBe(403);
    expect((await get('', otherToken, otherTeam)).status).toBe(200);
  });
});
