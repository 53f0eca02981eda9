import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { typedRows } from '../../db/sql.ts';
import { addDays, localDay } from '../../lib/days.ts';
import { createLogger } from '../../lib/logger.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { workspaces } from '../workspaces/table.ts';
import { workflowsTickJob } from '../workflows/jobs.ts';
import { levelsJob } from './jobs.ts';
import { refreshLevels } from './levels.ts';
import { backfills, slackMembers } from '../workspace-data/table.ts';
import { activityMemberDaily, memberLevelChanges, memberLevels, memberLevelsAnchor } from './table.ts';

/* The test clock (dev-clock.ts): end-to-end tests only, never in production. */

// One app without DEV_CLOCK for the tests below that need none (an app takes a while on a busy machine).
// Neither app runs workers: the levels job is run by hand here, and the real one (every minute, found within
// seconds by the queue's sweep) would otherwise compute the same change beside it and take it from the test.
let plain: TestApp;
beforeAll(async () => {
  plain = await buildTestApp({}, { workers: false });
}, 120_000);
afterAll(() => plain.close());

describe('the test clock is refused in production and off unless asked for', () => {
  it('DEV_CLOCK cannot be turned on in production, and is off by default everywhere', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEV_CLOCK: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DEV_CLOCK: '1' })).toThrow(/DEV_CLOCK/);
    expect(loadConfig({ NODE_ENV: 'production' }).devClock).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).devClock).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEV_CLOCK: 'false' }).devClock).toBe(false);
  });

  it('without DEV_CLOCK there is no clock to move: /api/dev/clock is not found', async () => {
    expect(plain.ctx.devClock).toBeNull();
    for (const method of ['GET', 'POST'] as const) {
      const res = await plain.app.inject({
        method,
        url: '/api/dev/clock',
        payload: { levels_days_ahead: 3 },
      });
      expect([method, res.statusCode]).toEqual([method, 404]);
    }
  });
});

describe('with DEV_CLOCK', () => {
  let t: TestApp;
  const team = 'TDEVCLOCK1';
  const tz = 'Pacific/Auckland';
  beforeAll(async () => {
    t = await buildTestApp({ DEV_CLOCK: 'true' }, { workers: false });
  }, 120_000);
  afterAll(() => t.close());

  const post = (payload: unknown, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/dev/clock', payload: payload as object, remoteAddress });

  it('answers this machine only, and 400 naming the field for a bad body', async () => {
    const far = await post({ levels_days_ahead: 2 }, '203.0.113.5');
    expect([far.statusCode, far.json().code]).toEqual([403, 'FORBIDDEN']);
    const farBad = await post({ levels_days_ahead: 'soon' }, '203.0.113.5');
    expect(farBad.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/dev/clock', remoteAddress: '10.0.0.2' })).statusCode,
    ).toBe(403);
    for (const bad of [
      {},
      { levels_days_ahead: -1 },
      { levels_days_ahead: 1.5 },
      { levels_days_ahead: 61 },
    ]) {
      const res = await post(bad);
      expect([JSON.stringify(bad), res.statusCode]).toEqual([JSON.stringify(bad), 400]);
      expect(res.body).toContain('levels_days_ahead');
    }
    expect(t.ctx.devClock).toEqual({ levelsDaysAhead: 0 });
  });

  it('moves the day the levels job computes for: a Regular quiet for 13 days slips a day later, the change recorded at the real time', async () => {
    const db = t.ctx.database.db;
    const today = localDay(new Date(), tz);
    await db.insert(workspaces).values({ teamId: team, name: 'Clock', domain: 'clock', timezone: tz });
    await db.insert(slackMembers).values({ teamId: team, memberId: 'UQUIET', realName: 'Quiet' });
    // Active on four days, the last 13 days ago: Regular today, Slipping tomorrow.
    await db.insert(activityMemberDaily).values(
      [13, 15, 17, 19].map((back) => ({
        teamId: team,
        day: addDays(today, -back),
        memberId: 'UQUIET',
        messages: 1,
        replies: 0,
        reactions: 0,
      })),
    );
    const run = () =>
      levelsJob.handle(
        {},
        { ctx: t.ctx, jobId: 'x', logger: createLogger('silent'), stopping: new AbortController().signal },
      );
    const level = async () =>
      (
        await typedRows<{ level: string; since: string }>(
          db,
          sql`select level, since::text as since from ${memberLevels} where team_id = ${team} and member_id = 'UQUIET'`,
        )
      )[0];
    // The queue is the real one; the spy only records what the levels job asks of it.
    const sent = vi.spyOn(t.ctx.queue, 'send');
    const tickWakes = () => sent.mock.calls.filter(([job]) => job === workflowsTickJob).length;
    await run();
    expect(await level()).toEqual({ level: 'regular', since: today });
    // A first level is no change: no workflow is woken for it.
    expect(tickWakes()).toBe(0);

    const moved = await post({ levels_days_ahead: 1 });
    expect([moved.statusCode, moved.json()]).toEqual([200, { levels_days_ahead: 1 }]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/dev/clock', remoteAddress: '127.0.0.1' })).json(),
    ).toEqual({ levels_days_ahead: 1 });
    const before = Date.now();
    await run();
    expect(await level()).toEqual({ level: 'slipping', since: addDays(today, 1) });
    // A change wakes the workflows' tick at once, so a Member Level workflow fires now, not at the next minute.
    expect(tickWakes()).toBe(1);
    // Naming the workspace: its Member Level triggers look at once (workflows/triggers.ts).
    expect(sent.mock.calls.find(([job]) => job === workflowsTickJob)?.[1]).toEqual({ level_teams: [team] });
    sent.mockRestore();
    const [change] = await typedRows<{
      from_level: string;
      to_level: string;
      day: string;
      at: Date | string;
    }>(
      db,
      sql`select from_level, to_level, day::text as day, at from ${memberLevelChanges}
        where team_id = ${team} and member_id = 'UQUIET' and to_level = 'slipping'`,
    );
    expect(change).toMatchObject({ from_level: 'regular', to_level: 'slipping', day: addDays(today, 1) });
    // Recorded now, not tomorrow: what follows a change (a workflow's trigger) runs on the real clock.
    expect(new Date(change!.at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(change!.at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const [anchor] = await typedRows<{ day: string }>(
      db,
      sql`select day::text as day from ${memberLevelsAnchor} where team_id = ${team}`,
    );
    expect(anchor?.day).toBe(addDays(today, 1));

    // Back to today: the levels of today again.
    await post({ levels_days_ahead: 0 });
    await run();
    expect((await level())?.level).toBe('regular');
  });
});

describe('levels wait for the history import', () => {
  it('a workspace whose import runs gets no levels; they come, as first levels, once it is done', async () => {
    const db = plain.ctx.database.db;
    const team = 'TIMPORTING';
    await db.insert(workspaces).values({ teamId: team, name: 'Importing', domain: 'importing' });
    await db.insert(slackMembers).values({ teamId: team, memberId: 'UEARLY', realName: 'Early' });
    await db.insert(backfills).values({ teamId: team, status: 'running', days: 30, state: {} });
    const timezones = new Map([[team, 'UTC']]);
    expect((await refreshLevels(db, timezones, new Date(), true)).has(team)).toBe(false);
    const anchors = () =>
      typedRows<{ day: string }>(
        db,
        sql`select day::text as day from ${memberLevelsAnchor} where team_id = ${team}`,
      );
    expect(await anchors()).toEqual([]);
    await db.update(backfills).set({ status: 'done' });
    expect((await refreshLevels(db, timezones)).get(team)).toEqual([]);
    expect(await anchors()).toEqual([{ day: localDay(new Date(), 'UTC') }]);
  });
});
