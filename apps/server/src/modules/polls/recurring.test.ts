import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { wallClock } from '@flywheel/shared/clock';
import {
  createRecurringPollBody,
  POLL_TEXTS,
  POLL_VOTE_ACTION,
  RECURRING_POLL_TEXTS,
} from '@flywheel/shared/polls';
import { typedRows } from '../../db/sql.ts';
import { createLogger } from '../../lib/logger.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  drainDeliveries as drainAll,
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from '../delivery/engine.ts';
import { pollsService, type PollJobs } from './service.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/*
 * Recurring polls on an injected clock: each run is a poll of its own, posted at the same local time across a
 * daylight-saving change, once whatever number of workers plan it; deleting the recurring poll stops the next.
 * (jobs/real-tick.test.ts lets the real polls.tick find one.)
 */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let channel: string;
let clockMs = Date.parse('2026-10-17T12:00:00Z');

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 51, members: 10, channels: 2, days: 2 },
        { seed: 52, members: 6, channels: 2, days: 2 },
      ],
    },
    { DELIVERY_RETRY_BASE_MS: '20' },
  );
  [teamId] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: env.emu.teamIds[1] })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  channel = (env.emu.truth(teamId).channels() as any[]).find(
    (c) => !c.is_private && !c.is_im && !c.is_archived,
  ).id;
}, 120_000);
afterAll(() => env.close());

const call = (method: 'POST' | 'DELETE' | 'GET', url: string, payload?: object, token = user.token) =>
  env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), payload });

const body = (over: object = {}) => ({
  team_id: teamId,
  channel_ids: [channel],
  poll_question: 'Standup or async this week?',
  options: [
    { emoji: '👍', emoji_code: 'thumbsup', value: 'Standup' },
    { emoji: '🎉', emoji_code: 'tada', value: 'Async' },
  ],
  sender: 'b',
  images: [],
  frequency: 'Weekly',
  days: ['mon'],
  time: '09:00',
  ...over,
});

const db = () => env.t.ctx.database.db;
const noJobs: PollJobs = { refresh: async () => {}, closeAt: async () => {}, remove: async () => {} };
/** A worker on the test's clock, in London's timezone. */
const worker = () =>
  pollsService({
    db: db(),
    audience: env.t.ctx.services.audience,
    delivery: env.t.ctx.services.delivery,
    timezoneOf: async () => 'Europe/London',
    jobs: noJobs,
    logger: createLogger('silent'),
    now: () => clockMs,
    graceMs: 60 * 60_000,
  });

const pollsOf = (recurringId: number) =>
  typedRows<{ id: number; post_at: string; expires_at: string; receipt_id: number | null }>(
    db(),
    sql`select id, post_at::text as post_at, expires_at::text as expires_at, receipt_id::int as receipt_id
      from polls where recurrence_id = ${recurringId} order by post_at`,
  );

describe('recurring polls: bad input', () => {
  const cases: [string, object, string][] = [
    ['no frequency', { frequency: undefined }, RECURRING_POLL_TEXTS.frequency],
    ['a made-up frequency', { frequency: 'Monthly' }, RECURRING_POLL_TEXTS.frequency],
    ['a weekly poll without days', { days: [] }, RECURRING_POLL_TEXTS.days],
    ['a time that is not HH:MM', { time: '25:00' }, RECURRING_POLL_TEXTS.time],
    ['no time', { time: undefined }, RECURRING_POLL_TEXTS.time],
    ['a zero duration', { duration_hours: 0 }, RECURRING_POLL_TEXTS.duration],
    ['no channel', { channel_ids: [] }, POLL_TEXTS.chooseChannel],
    ['an option without emoji', { options: [{ value: 'x' }] }, POLL_TEXTS.fillOptions],
    ['an unknown day', { days: ['funday'] }, 'days must be among'],
    // The button settings as for a one-off poll.
    ['a made-up voting', { voting: 'ballots' }, 'voting'],
    ['a setting on an emoji poll', { anonymous: true }, 'anonymous needs voting: buttons'],
    [
      'max_choices without multiple',
      { voting: 'buttons', max_choices: 1 },
      'max_choices needs multiple: true',
    ],
    [
      'max_choices above the options',
      { voting: 'buttons', multiple: true, max_choices: 3 },
      POLL_TEXTS.maxChoices,
    ],
    [
      'eleven button options',
      { voting: 'buttons', options: Array.from({ length: 11 }, (_, i) => ({ value: `O${i}` })) },
      POLL_TEXTS.maxButtonOptions,
    ],
    ['a made-up results', { voting: 'buttons', results: 'never' }, 'results'],
  ];
  it.each(cases)('refuses %s with a 400 naming the field', async (_name, over, text) => {
    const res = await call('POST', '/poll/createrecurringpoll', body(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(text);
  });

  it("another admin's workspace is 403; an unknown recurring poll 404, a bad id 400", async () => {
    expect((await call('POST', '/poll/createrecurringpoll', body(), stranger.token)).statusCode).toBe(403);
    expect(
      (await call('GET', `/poll/getrecurringpolls/${teamId}`, undefined, stranger.token)).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/poll/deleterecurringpoll/99999/${teamId}`)).statusCode).toBe(404);
    const bad = await call('DELETE', `/poll/deleterecurringpoll/abc/${teamId}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('recurringId');
  });
});

describe('a weekly poll across the end of British Summer Time', () => {
  it('posts each Monday at 09:00 London time (08:00Z, then 09:00Z), once with two workers; deleting stops it', async () => {
    const a = worker();
    const b = worker();
    // Created through the service on the test's clock (the API runs on the real one).
    const made = await a.recurring.create(user.userid, createRecurringPollBody.parse(body()));
    expect(made).toMatchObject({ schedule: 'Weekly (mon) at 09:00', next_run: '2026-10-19T08:00:00.000Z' });
    expect((await call('GET', `/poll/getrecurringpolls/${teamId}`)).json().data[0]).toMatchObject({
      id: made.id,
      next_run: '2026-10-19T08:00:00.000Z',
      instances: [],
    });

    // Nothing is due before its time.
    expect(await a.recurring.plan()).toBe(0);
    expect(await pollsOf(made.id)).toEqual([]);

    // Monday 19 October, 09:00 BST: two workers plan at once, one poll; it is posted like a scheduled poll.
    clockMs = Date.parse('2026-10-19T08:00:20Z');
    await Promise.all([a.recurring.plan(), b.recurring.plan(), a.recurring.plan()]);
    let rows = await pollsOf(made.id);
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]!.post_at).toISOString()).toBe('2026-10-19T08:00:00.000Z');
    expect(new Date(rows[0]!.expires_at).toISOString()).toBe('2026-10-20T08:00:00.000Z');
    await Promise.all([a.postDue(), b.postDue()]);
    await drainAll(env, teamId);
    rows = await pollsOf(made.id);
    expect(rows[0]!.receipt_id).not.toBeNull();
    const posted = () =>
      ([...env.emu.truth(teamId).messages({ channel })] as any[]).filter(
        (m) => m.metadata?.event_type === DELIVERY_EVENT_TYPE && String(m.text).includes('Standup or async'),
      );
    expect(posted()).toHaveLength(1);

    // The next run: Monday 26 October, 09:00 GMT (the clocks went back on the 25th).
    const listed = (await call('GET', `/poll/getrecurringpolls/${teamId}`)).json().data[0];
    expect(listed.next_run).toBe('2026-10-26T09:00:00.000Z');
    expect(listed.instances).toEqual([
      { poll_id: rows[0]!.id, post_at: '2026-10-19T08:00:00.000Z', state: 'expired', total_votes: 0 },
    ]);
    // Each occurrence is a poll of its own: the Poll Table and its details know it.
    const info = await call('GET', `/poll/getpollinfo/${rows[0]!.id}/${teamId}`);
    expect(info.json().data).toMatchObject({ question: 'Standup or async this week?', type: 'scheduled' });

    clockMs = Date.parse('2026-10-26T08:00:30Z'); // 08:00 GMT: an hour early for it
    expect(await a.recurring.plan()).toBe(0);
    clockMs = Date.parse('2026-10-26T09:00:30Z');
    await Promise.all([a.recurring.plan(), b.recurring.plan()]);
    rows = await pollsOf(made.id);
    expect(rows.map((r) => new Date(r.post_at).toISOString())).toEqual([
      '2026-10-19T08:00:00.000Z',
      '2026-10-26T09:00:00.000Z',
    ]);
    for (const r of rows) {
      const local = wallClock(Date.parse(r.post_at), 'Europe/London');
      expect([local.hour, local.minute]).toEqual([9, 0]);
    }
    await a.postDue();
    await drainAll(env, teamId);
    expect(posted()).toHaveLength(2);

    // Deleted: no later poll, the posted ones stay.
    const del = await call('DELETE', `/poll/deleterecurringpoll/${made.id}/${teamId}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe(RECURRING_POLL_TEXTS.deleted);
    expect((await call('GET', `/poll/getrecurringpolls/${teamId}`)).json().data).toEqual([]);
    clockMs = Date.parse('2026-11-02T09:00:30Z');
    await Promise.all([a.recurring.plan(), b.recurring.plan()]);
    await a.postDue();
    expect(await pollsOf(made.id)).toHaveLength(2);
    expect(posted()).toHaveLength(2);
    expect((await call('DELETE', `/poll/deleterecurringpoll/${made.id}/${teamId}`)).statusCode).toBe(404);
  });

  it('a run more than the grace late is skipped, and the next is planned from now (no burst)', async () => {
    clockMs = Date.parse('2026-11-03T12:00:00Z');
    const a = worker();
    const made = await a.recurring.create(
      user.userid,
      createRecurringPollBody.parse(body({ frequency: 'Everyday', days: [], poll_question: 'Daily pulse?' })),
    );
    expect(made.next_run).toBe('2026-11-04T09:00:00.000Z');
    clockMs = Date.parse('2026-11-07T10:30:00Z'); // three runs missed; the last one 90 minutes ago
    await a.recurring.plan();
    expect(await pollsOf(made.id)).toEqual([]);
    const [listed] = (await call('GET', `/poll/getrecurringpolls/${teamId}`)).json().data;
    expect(listed.next_run).toBe('2026-11-08T09:00:00.000Z');
  });
});

describe('a recurring button poll', () => {
  it("posts each occurrence with buttons and the recurring poll's ballot settings (anonymous, multiple choice)", async () => {
    // Ahead of the real clock: the server taking the press (on the real clock) finds the occurrence open.
    clockMs = Date.now() + 2 * 86_400_000;
    const a = worker();
    const made = await a.recurring.create(
      user.userid,
      createRecurringPollBody.parse(
        body({
          frequency: 'Everyday',
          days: [],
          time: '10:00',
          poll_question: 'Which topics for the weekly sync?',
          options: [{ value: 'Roadmap', emoji: '🗺️' }, { value: 'Hiring' }, { value: 'Incidents' }],
          voting: 'buttons',
          anonymous: true,
          multiple: true,
          max_choices: 2,
          allow_add: true,
          results: 'closed',
        }),
      ),
    );
    const settings = {
      voting: 'buttons',
      anonymous: true,
      multiple: true,
      max_choices: 2,
      allow_add: true,
      results: 'closed',
    };
    expect(made).toMatchObject(settings);
    expect((await call('GET', `/poll/getrecurringpolls/${teamId}`)).json().data[0]).toMatchObject({
      id: made.id,
      ...settings,
    });

    clockMs = Date.parse(made.next_run!) + 15_000;
    await a.recurring.plan();
    await a.postDue();
    await drainAll(env, teamId);
    const [occurrence] = await pollsOf(made.id);
    expect(occurrence?.receipt_id).not.toBeNull();
    const stored = await typedRows<{ voting: string; ballot: unknown }>(
      db(),
      sql`select voting, ballot from polls where id = ${occurrence!.id}`,
    );
    expect(stored[0]).toEqual({
      voting: 'buttons',
      ballot: { anonymous: true, multiple: true, max_choices: 2, allow_add: true, results: 'closed' },
    });
    const info = (await call('GET', `/poll/getpollinfo/${occurrence!.id}/${teamId}`)).json().data;
    expect(info).toMatchObject({ type: 'scheduled', ...settings });

    // The Slack message: one button per option and Add an option, counts hidden until it closes.
    const message = ([...env.emu.truth(teamId).messages({ channel })] as any[]).find(
      (m) =>
        m.metadata?.event_type === DELIVERY_EVENT_TYPE &&
        m.metadata.event_payload.receipt === occurrence!.receipt_id,
    );
    const buttons = (message.blocks as any[]).filter((b) => b.type === 'actions').flatMap((b) => b.elements);
    expect(buttons.map((b) => b.text.text)).toEqual(['🗺️ Roadmap', 'Hiring', 'Incidents', 'Add an option']);
    expect(buttons.slice(0, 3).map((b) => b.action_id)).toEqual(
      [0, 1, 2].map((i) => `${POLL_VOTE_ACTION}${i}`),
    );
    expect(message.text).toContain('Results are shown when the poll closes');

    // A press counts as on a one-off anonymous poll: a keyed hash, no member id.
    const people = new Set(
      ([...env.emu.truth(teamId).members()] as any[])
        .filter((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
        .map((m) => m.id as string),
    );
    const member = (env.emu.team(teamId).channels.members(channel) as string[]).find((m) => people.has(m))!;
    const pressed = await env.emu.interactivity.clickButton({
      teamId,
      userId: member,
      channel,
      message,
      actionId: `${POLL_VOTE_ACTION}1`,
    });
    expect(pressed.status, JSON.stringify(pressed)).toBe(200);
    const choices = await typedRows<{ voter: string; option: number; voted_at: string | null }>(
      db(),
      sql`select voter, option, voted_at::text as voted_at from poll_choices where poll_id = ${occurrence!.id}`,
    );
    expect(choices).toHaveLength(1);
    expect(choices[0]).toMatchObject({ option: 1, voted_at: null });
    expect(choices[0]!.voter.startsWith('h:')).toBe(true);
    expect(choices[0]!.voter).not.toContain(member);
  });
});
