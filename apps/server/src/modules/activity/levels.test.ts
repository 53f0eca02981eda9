import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audienceSchema } from '@flywheel/shared/delivery';
import { ENGAGEMENT_LEVELS, levelOf, type EngagementLevel } from '@flywheel/shared/levels';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { addDays, localDay, tsToDate } from '../../lib/days.ts';
import { typedRows } from '../../db/sql.ts';
import { recomputeLevels, refreshLevels } from './levels.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('levelOf: the rules, at their edges', () => {
  const today = '2026-03-31';
  const days = (...back: [number, number][]) =>
    back.map(([b, posts]) => ({ day: addDays(today, -b), posts }));
  const active = (n: number, from = 0, posts = 1) =>
    Array.from({ length: n }, (_, i) => [from + i, posts] as [number, number]);

  it('a member who joined in the last 30 days is a Newcomer, whatever they did', () => {
    expect(levelOf({ joinedDay: addDays(today, -29), days: days(...active(20, 0, 5)) }, today)).toBe(
      'newcomer',
    );
    expect(levelOf({ joinedDay: addDays(today, -30), days: [] }, today)).toBe('dormant');
    expect(levelOf({ joinedDay: today, days: [] }, today)).toBe('newcomer');
  });
  it('Champion needs 12 active days of the last 28 and 20 messages and replies', () => {
    expect(levelOf({ joinedDay: null, days: days(...active(12, 0, 2)) }, today)).toBe('champion');
    expect(levelOf({ joinedDay: null, days: days(...active(11, 0, 5)) }, today)).toBe('regular');
    // Reactions make a day active but are not posts.
    expect(levelOf({ joinedDay: null, days: days(...active(12, 0, 1)) }, today)).toBe('regular');
  });
  it('Regular needs 4 active days of the last 28, one of them in the last 14', () => {
    expect(levelOf({ joinedDay: null, days: days([13, 1], [20, 1], [21, 1], [27, 1]) }, today)).toBe(
      'regular',
    );
    expect(levelOf({ joinedDay: null, days: days([13, 1], [20, 1], [21, 1]) }, today)).toBe('casual');
    // The 28th day back is outside the window.
    expect(levelOf({ joinedDay: null, days: days([13, 1], [20, 1], [21, 1], [28, 1]) }, today)).toBe(
      'casual',
    );
  });
  it('Slipping: quiet 14 to 27 days after being Regular or better when last seen', () => {
    expect(levelOf({ joinedDay: null, days: days([14, 1], [20, 1], [30, 1], [41, 1]) }, today)).toBe(
      'slipping',
    );
    expect(levelOf({ joinedDay: null, days: days([27, 1], [30, 1], [40, 1], [54, 1]) }, today)).toBe(
      'slipping',
    );
    // The fourth day lies outside the 28 days ending on the last active day.
    expect(levelOf({ joinedDay: null, days: days([14, 1], [20, 1], [30, 1], [42, 1]) }, today)).toBe(
      'casual',
    );
    // 28 days quiet: Dormant.
    expect(levelOf({ joinedDay: null, days: days([28, 1], [29, 1], [30, 1], [31, 1]) }, today)).toBe(
      'dormant',
    );
  });
  it('never active (or only in the future) is Dormant', () => {
    expect(levelOf({ joinedDay: null, days: [] }, today)).toBe('dormant');
    expect(levelOf({ joinedDay: null, days: [{ day: addDays(today, 1), posts: 3 }] }, today)).toBe('dormant');
  });
});

describe('engagement levels of an imported workspace, against the emulator', () => {
  let env: SlackTestEnv;
  let teamId: string;
  let otherTeam: string;
  let token: string;
  let otherToken: string;
  let tz: string;
  /** Per person (not a bot, not gone): local join day and active days with posts, from the emulator alone. */
  let people: Map<string, { joinedDay: string | null; days: Map<string, number> }>;
  const db = () => env.t.ctx.database.db;

  beforeAll(async () => {
    env = await slackTestEnv(
      {
        workspaces: [
          { seed: 41, members: 70, channels: 4, days: 75 },
          { seed: 42, members: 10, channels: 2, days: 10 },
        ],
      },
      { BACKFILL_DAYS: '120' },
    );
    [teamId, otherTeam] = env.emu.teamIds as [string, string];
    const owner = await signedInUser(env.t);
    const other = await signedInUser(env.t);
    token = owner.token;
    otherToken = other.token;
    expect((await installThroughOAuth(env, owner, { teamId })).statusCode).toBe(200);
    expect((await installThroughOAuth(env, other, { teamId: otherTeam })).statusCode).toBe(200);
    // The process's own minute job would recompute today's levels between a test's days ahead and its reads
    // (the job's own path is tested in dev-clock.test.ts and the e2e levels spec): the tests here call it.
    await env.t.ctx.queue.boss.unschedule('activity.levels.refresh');
    await db().execute(
      sql`delete from pgboss.job where name = 'activity.levels.refresh' and state in ('created', 'retry')`,
    );
    await waitForBackfill(env, token, teamId, 90_000);
    await waitForBackfill(env, otherToken, otherTeam, 90_000);
    tz = (
      await typedRows<{ timezone: string }>(
        db(),
        sql`select timezone from workspaces where team_id = ${teamId}`,
      )
    )[0]!.timezone;
    people = truth();
  }, 180_000);
  afterAll(() => env?.close());

  /** Every person's activity per local day, counted from the emulator's raw messages and reactions. */
  function truth() {
    const t = env.emu.truth(teamId);
    const botUser = t.install()?.botUserId;
    const visible = new Set(
      (t.channels() as any[])
        .filter((c) => !c.is_im && (c.members as string[]).includes(botUser!))
        .map((c) => c.id as string),
    );
    const out = new Map<string, { joinedDay: string | null; days: Map<string, number> }>();
    const bots = new Set<string>();
    for (const m of [...t.members()] as any[]) {
      if (m.is_bot || m.deleted) {
        bots.add(m.id);
        continue;
      }
      out.set(m.id, {
        joinedDay: m.joined_at ? localDay(new Date(m.joined_at * 1000), tz) : null,
        days: new Map(),
      });
    }
    const add = (user: string, day: string, posts: number) => {
      const p = out.get(user);
      if (p) p.days.set(day, (p.days.get(day) ?? 0) + posts);
    };
    for (const m of [...t.messages()] as any[]) {
      if (!visible.has(m.channel) || m.deleted) continue;
      const content = !m.subtype || ['thread_broadcast', 'file_share', 'me_message'].includes(m.subtype);
      if (!content && m.subtype !== 'bot_message') continue;
      const day = localDay(tsToDate(m.ts), tz);
      // A person's reaction is their activity whoever posted the message: a bot, or a member deactivated since.
      for (const r of m.reactions ?? []) for (const u of r.users) add(u, day, 0);
      if (!content || m.bot_id || !m.user || bots.has(m.user)) continue;
      add(m.user, day, 1);
    }
    return out;
  }

  const expected = (day: string) =>
    new Map(
      [...people].map(([id, p]) => [
        id,
        levelOf({ joinedDay: p.joinedDay, days: [...p.days].map(([d, posts]) => ({ day: d, posts })) }, day),
      ]),
    );
  const stored = async () =>
    new Map(
      (
        await typedRows<{ member_id: string; level: EngagementLevel }>(
          db(),
          sql`select member_id, level from member_levels where team_id = ${teamId}`,
        )
      ).map((r) => [r.member_id, r.level]),
    );
  const timezones = () => new Map([[teamId, tz]]);
  /** Noon of the local day `day` (near enough: the day is what matters). */
  const noonOf = (day: string) => new Date(`${day}T12:00:00Z`);

  it("today: every person's level equals the rules applied to the emulator's messages", async () => {
    const today = localDay(new Date(), tz);
    await refreshLevels(db(), timezones(), new Date(), true);
    const want = expected(today);
    expect(await stored()).toEqual(want);
    // Not a degenerate workspace: several levels are held.
    expect(new Set(want.values()).size).toBeGreaterThanOrEqual(3);
  });

  it('the SQL equals the rules in plain code on 600 generated members, on three days (edges included)', async () => {
    // A generated workspace written straight into the tables the levels read: every pattern of the edges
    // (a 4th active day just inside or outside a window, quiet 13, 14, 27, 28 days) appears many times.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const team = 'TSYNTH0001';
    const today = localDay(new Date(), tz);
    const members: { id: string; joinedDay: string | null; days: { day: string; posts: number }[] }[] = [];
    for (let i = 0; i < 600; i++) {
      const rate = [0.02, 0.08, 0.15, 0.3, 0.6][i % 5]!;
      const quietFor = Math.floor(random() * 45);
      const days: { day: string; posts: number }[] = [];
      for (let back = quietFor; back < 70; back++)
        if (random() < rate) days.push({ day: addDays(today, -back), posts: Math.floor(random() * 4) });
      const joinedDay = random() < 0.3 ? null : addDays(today, -Math.floor(random() * 90));
      members.push({ id: `US${String(i).padStart(6, '0')}`, joinedDay, days });
    }
    await db().execute(sql`insert into slack_members (team_id, member_id, real_name, joined_at)
      select ${team}, id, id, j at time zone ${tz} from unnest(${sql.param(members.map((m) => m.id))}::text[],
        ${sql.param(members.map((m) => (m.joinedDay ? `${m.joinedDay}T12:00:00` : null)))}::timestamp[]) as t(id, j)`);
    const rows = members.flatMap((m) => m.days.map((d) => ({ id: m.id, ...d })));
    await db()
      .execute(sql`insert into activity_member_daily (team_id, day, member_id, messages, replies, reactions)
      select ${team}, d, id, p, 0, 1 from unnest(${sql.param(rows.map((r) => r.day))}::date[],
        ${sql.param(rows.map((r) => r.id))}::text[], ${sql.param(rows.map((r) => r.posts))}::int[]) as t(d, id, p)`);
    for (const ahead of [0, 9, 21]) {
      const day = addDays(today, ahead);
      // (Join times are local noon of the join day, in the workspace's zone.)
      await db().transaction((tx) => recomputeLevels(tx, team, tz, day));
      const got = new Map(
        (
          await typedRows<{ member_id: string; level: EngagementLevel }>(
            db(),
            sql`select member_id, level from member_levels where team_id = ${team}`,
          )
        ).map((r) => [r.member_id, r.level]),
      );
      const want = new Map(
        members.map((m) => [m.id, levelOf({ joinedDay: m.joinedDay, days: m.days }, day)]),
      );
      expect(got).toEqual(want);
      expect(new Set(want.values()).size, `levels held on ${day}`).toBeGreaterThanOrEqual(
        ahead === 0 ? 6 : 4,
      );
    }
  });

  it('16 and 40 days on: members slip, then go dormant; each change is in the history once', async () => {
    const today = localDay(new Date(), tz);
    await refreshLevels(db(), timezones(), new Date(), true);
    const before = await stored();
    for (const ahead of [16, 40]) {
      const day = addDays(today, ahead);
      // Two workers at once: one recomputes, the other finds the levels current.
      const [a, b] = await Promise.all([
        refreshLevels(db(), timezones(), noonOf(day)),
        refreshLevels(db(), timezones(), noonOf(day)),
      ]);
      expect([a.has(teamId), b.has(teamId)].filter(Boolean)).toHaveLength(1);
      expect(await stored()).toEqual(expected(day));
      const changes = await typedRows<{ member_id: string; n: number }>(
        db(),
        sql`select member_id, count(*)::int as n from member_level_changes
          where team_id = ${teamId} and day = ${day}::date group by member_id`,
      );
      expect(changes.every((c) => c.n === 1)).toBe(true);
    }
    const at16 = expected(addDays(today, 16));
    const slipped = [...at16].filter(
      ([id, l]) => l === 'slipping' && ['regular', 'champion'].includes(before.get(id)!),
    );
    expect(slipped.length).toBeGreaterThan(0);
    // The member page shows the level and its history, newest first.
    const [id, was] = slipped[0]!.length ? [slipped[0]![0], before.get(slipped[0]![0])] : [];
    const res = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/member/memberinfo/${teamId}/${id}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().data;
    const now40 = expected(addDays(today, 40)).get(id!);
    expect(info.level).toBe(now40);
    expect(info.level_history[0].to).toBe(now40);
    expect(info.level_history).toContainEqual({ from: was, to: 'slipping', day: addDays(today, 16) });
  });

  it('the API: counts per level, the Members filter by level and each row’s level; bad input and other workspaces refused', async () => {
    const today = localDay(new Date(), tz);
    await refreshLevels(db(), timezones(), new Date(), true);
    const want = expected(today);
    const counts = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/members/levels?team_id=${teamId}`,
      headers: bearer(token),
    });
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json().day).toBe(today);
    for (const level of ENGAGEMENT_LEVELS)
      expect(counts.json().data.find((c: any) => c.level === level).count, level).toBe(
        [...want.values()].filter((l) => l === level).length,
      );
    for (const levels of [
      ['slipping', 'regular'],
      ['casual'],
      ['dormant', 'newcomer', 'champion'],
    ] as const) {
      const page = await env.t.app.inject({
        method: 'POST',
        url: '/api/v0/members/getmembersdata',
        headers: bearer(token),
        payload: { team_id: teamId, levels, page_size: 500, time_filter: { type: 'static', days: 30 } },
      });
      expect(page.statusCode, page.body).toBe(200);
      const ids = page
        .json()
        .data.map((m: any) => m.member_id)
        .sort();
      expect(ids).toEqual(
        [...want]
          .filter(([, l]) => (levels as readonly string[]).includes(l))
          .map(([i]) => i)
          .sort(),
      );
      for (const m of page.json().data) expect(m.level).toBe(want.get(m.member_id));
    }
    // A send's audience from the Members filter: DM everyone Slipping or Dormant.
    const recipients = await env.t.ctx.services.audience.resolve(
      teamId,
      audienceSchema.parse({ filter: { levels: ['slipping', 'dormant'] } }),
    );
    expect(recipients.members.sort()).toEqual(
      [...want]
        .filter(([, l]) => l === 'slipping' || l === 'dormant')
        .map(([i]) => i)
        .sort(),
    );
    // A bucket filtered by level finds the members of that level in its channels, as the Members list does.
    const channels = (
      await typedRows<{ channel_id: string }>(
        db(),
        sql`select channel_id from slack_channels where team_id = ${teamId}`,
      )
    ).map((c) => c.channel_id);
    const data = { channel_filter: { ids: channels }, levels: ['casual', 'regular'] };
    const bucket = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/bucket/createbucket',
      headers: bearer(token),
      payload: { team_id: teamId, bucket_name: 'Casual and regular', data },
    });
    expect(bucket.statusCode, bucket.body).toBe(201);
    const run = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/bucket/execute',
      headers: bearer(token),
      payload: { team_id: teamId, id: bucket.json().data.id },
    });
    expect(run.statusCode, run.body).toBe(200);
    const listed = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/members/getmembersdata',
      headers: bearer(token),
      payload: { team_id: teamId, channels, levels: data.levels, page_size: 500 },
    });
    expect(run.json().data.bucketdata.member_count).toBe(listed.json().total);
    expect(listed.json().total).toBeGreaterThan(0);
    expect(run.json().data.bucketdata.data.levels).toEqual(data.levels);
    const bad = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/members/getmembersdata',
      headers: bearer(token),
      payload: { team_id: teamId, levels: ['hero'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/levels/);
    const foreign = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/members/levels?team_id=${teamId}`,
      headers: bearer(otherToken),
    });
    expect(foreign.statusCode).toBe(403);
  });
});
