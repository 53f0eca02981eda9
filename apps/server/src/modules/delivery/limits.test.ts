import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createLogger } from '../../lib/logger.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  drainDeliveries,
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { actionsService } from '../actions/service.ts';
import { DELIVERY_EVENT_TYPE } from './engine.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/*
 * One admin cannot flood a workspace by accident: an Idempotency-Key makes a send once whatever number of
 * times it is asked (in parallel or in sequence), a send to the whole workspace (or a filter, or many members)
 * names its count, and a workspace's daily budget refuses what does not fit.
 * The budget here is 3 messages per reachable member (no minimum); confirmation over 10 recipients.
 */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let members: string[];
let otherMembers: string[];

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 41, members: 30, channels: 3, days: 2 },
        { seed: 42, members: 12, channels: 2, days: 2 },
      ],
    },
    {
      DELIVERY_RETRY_BASE_MS: '20',
      SEND_DAILY_BUDGET_MIN: '0',
      SEND_DAILY_BUDGET_PER_MEMBER: '3',
      SEND_CONFIRM_OVER: '10',
    },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  await waitForBackfill(env, stranger.token, otherTeam);
  const people = (team: string) =>
    [...env.emu.truth(team).members()]
      .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT')
      .map((m: any) => m.id as string)
      .sort();
  members = people(teamId);
  otherMembers = people(otherTeam);
}, 120_000);
afterAll(() => env.close());

const post = (url: string, payload: object, o: { token?: string; key?: string } = {}) =>
  env.t.app.inject({
    method: 'POST',
    url: `/api/v0${url}`,
    headers: { ...bearer(o.token ?? user.token), ...(o.key ? { 'idempotency-key': o.key } : {}) },
    payload,
  });
const get = (url: string, token = user.token) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(token) });

const receipts = async (team = teamId, token = user.token) =>
  (await get(`/receipts/getallreceipts/${team}`, token)).json().data as any[];

/** Our messages in Slack's DMs of a workspace, per member: their texts. */
function dmTexts(team = teamId): Map<string, string[]> {
  const ims = new Map<string, string[]>();
  for (const c of env.emu.truth(team).channels() as any[]) if (c.is_im) ims.set(c.id, c.members);
  const per = new Map<string, string[]>();
  for (const m of env.emu.truth(team).messages() as Iterable<any>) {
    if (m.metadata?.event_type !== DELIVERY_EVENT_TYPE) continue;
    const whom = ims.get(m.channel)?.find((u) => u !== m.user && !u.startsWith('B'));
    if (whom) per.set(whom, [...(per.get(whom) ?? []), m.text]);
  }
  return per;
}
const countOf = (text: string, team = teamId) =>
  [...dmTexts(team).values()].flat().filter((t) => t === text).length;

describe('Idempotency-Key', () => {
  it('20 parallel sends with one key: one receipt, the same answer to each, one DM in Slack', async () => {
    const key = crypto.randomUUID();
    const text = `Once only ${key}`;
    const before = (await receipts()).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/member/directmessage', { team_id: teamId, sender: 'bot', id: members[0], text }, { key }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(202));
    const ids = new Set(answers.map((a) => a.json().data.receipt_id));
    expect(ids.size).toBe(1);
    expect((await receipts()).length).toBe(before + 1);
    await drainDeliveries(env, teamId);
    expect(countOf(text)).toBe(1);
    expect(dmTexts().get(members[0]!)).toContain(text);
  });

  it('the same key again answers the same receipt; another request with it is a 409; a bad key a 400', async () => {
    const key = crypto.randomUUID();
    const body = { team_id: teamId, sender: 'bot', users: [members[1], members[2]], text: `Twice? ${key}` };
    const first = await post('/quickaction/dmtomultipleusers', body, { key });
    expect(first.statusCode).toBe(202);
    expect(first.json().data.budget_remaining).toEqual(expect.any(Number));
    const again = await post('/quickaction/dmtomultipleusers', body, { key });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Another text, or another route, under the same key.
    const other = await post('/quickaction/dmtomultipleusers', { ...body, text: 'Something else' }, { key });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(other.json().message).toMatch(/Idempotency-Key was already used for another request/);
    const route = await post('/member/directmessage', { ...body, id: members[1] }, { key });
    expect(route.statusCode).toBe(409);
    await drainDeliveries(env, teamId);
    expect(countOf(`Twice? ${key}`)).toBe(2); // two members, once each

    for (const bad of ['x'.repeat(201), 'has space']) {
      const res = await post('/member/directmessage', { ...body, id: members[1] }, { key: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/Idempotency-Key must be 1 to 200 visible ASCII characters/);
    }
  });

  it('a request that failed frees its key; keys are per admin and workspace; without a key each send is new', async () => {
    const key = crypto.randomUUID();
    const bad = await post(
      '/member/directmessage',
      { team_id: teamId, sender: 'bot', id: 'UNOBODY1', text: 'x' },
      { key },
    );
    expect(bad.statusCode).toBe(400);
    const text = `Fixed ${key}`;
    const fixed = await post(
      '/member/directmessage',
      { team_id: teamId, sender: 'bot', id: members[3], text },
      { key },
    );
    expect(fixed.statusCode).toBe(202);
    const replay = await post(
      '/member/directmessage',
      { team_id: teamId, sender: 'bot', id: members[3], text },
      { key },
    );
    expect(replay.json().data.receipt_id).toBe(fixed.json().data.receipt_id);
    // The other admin's workspace, the same key: its own send.
    const theirs = await post(
      '/member/directmessage',
      { team_id: otherTeam, sender: 'bot', id: otherMembers[0], text },
      { key, token: stranger.token },
    );
    expect(theirs.statusCode).toBe(202);
    expect(theirs.json().data.receipt_id).not.toBe(fixed.json().data.receipt_id);
    // And the same key on another admin's workspace by this admin is refused before anything (403).
    const foreign = await post(
      '/member/directmessage',
      { team_id: otherTeam, sender: 'bot', id: otherMembers[0], text },
      { key },
    );
    expect(foreign.statusCode).toBe(403);
    // No key: two sends.
    const plain = { team_id: teamId, sender: 'bot', id: members[4], text: `No key ${key}` };
    const [a, b] = [await post('/member/directmessage', plain), await post('/member/directmessage', plain)];
    expect(a.json().data.receipt_id).not.toBe(b.json().data.receipt_id);
  });

  it('creating a schedule twice under one key makes one schedule', async () => {
    const key = crypto.randomUUID();
    const body = {
      team_id: teamId,
      trigger_name: `Keyed ${key}`,
      message_sender: 'b',
      message: 'Daily hello',
      dms: { members: [members[5]] },
      frequency: 'Everyday',
      time: '09:00',
    };
    const [a, b] = await Promise.all([
      post('/actions/createscheduled', body, { key }),
      post('/actions/createscheduled', body, { key }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.id).toBe(b.json().data.id);
    const list = (await get(`/actions/getscheduled/${teamId}`)).json().data as any[];
    expect(list.filter((r) => r.trigger_name === `Keyed ${key}`)).toHaveLength(1);
  });
});

describe('confirming the recipients of a large send', () => {
  it('the whole workspace without confirm_recipients is a 409 with the count and queues nothing; with it, one DM each', async () => {
    const text = `Hello everyone ${Date.now()}`;
    const body = { team_id: teamId, sender: 'bot', message: text, sendtoworkspace: true };
    const before = (await receipts()).length;
    const ask = await post('/quickaction/sendmessage', body);
    expect(ask.statusCode).toBe(409);
    expect(ask.json()).toMatchObject({
      code: 'CONFIRM_RECIPIENTS',
      recipients: members.length,
      members: members.length,
      channels: 0,
    });
    expect(ask.json().message).toBe(
      `This goes to ${members.length} members (the whole workspace): confirm by sending it again with confirm_recipients: ${members.length}`,
    );
    const stale = await post('/quickaction/sendmessage', { ...body, confirm_recipients: members.length - 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/^This now goes to \d+ members, not \d+: confirm again/);
    expect((await receipts()).length).toBe(before);

    const sent = await post('/quickaction/sendmessage', { ...body, confirm_recipients: members.length });
    expect(sent.statusCode).toBe(202);
    expect(sent.json().data.total).toBe(members.length);
    await drainDeliveries(env, teamId);
    const per = dmTexts();
    for (const m of members) expect((per.get(m) ?? []).filter((t) => t === text)).toHaveLength(1);
  });

  it('a Members filter (nothing ticked) and more than SEND_CONFIRM_OVER members ask too; 10 members do not', async () => {
    const filtered = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'bot',
      message: 'To the filtered',
      filter: { time_filter: { type: 'static', days: 90 } },
    });
    expect(filtered.statusCode).toBe(409);
    expect(filtered.json().code).toBe('CONFIRM_RECIPIENTS');
    expect(filtered.json().message).toMatch(/everything the Members filters show/);
    const eleven = { team_id: teamId, sender: 'bot', users: members.slice(0, 11), text: 'Eleven' };
    const many = await post('/quickaction/dmtomultipleusers', eleven);
    expect(many.statusCode).toBe(409);
    expect(many.json()).toMatchObject({ recipients: 11 });
    expect(many.json().message).toMatch(/more than 10 recipients/);
    expect(
      (await post('/quickaction/dmtomultipleusers', { ...eleven, confirm_recipients: 11 })).statusCode,
    ).toBe(202);
    const ten = await post('/quickaction/dmtomultipleusers', { ...eleven, users: members.slice(0, 10) });
    expect(ten.statusCode).toBe(202);
  });

  it('a schedule or an automation to the whole workspace names its count when it is created', async () => {
    const schedule = {
      team_id: teamId,
      trigger_name: 'Everyone daily',
      message_sender: 'b',
      message: 'Daily news',
      sendtoworkspace: true,
      frequency: 'Everyday',
      time: '08:00',
    };
    const ask = await post('/actions/createscheduled', schedule);
    expect(ask.statusCode).toBe(409);
    expect(ask.json()).toMatchObject({ code: 'CONFIRM_RECIPIENTS', recipients: members.length });
    const made = await post('/actions/createscheduled', { ...schedule, confirm_recipients: members.length });
    expect(made.statusCode).toBe(201);
    const auto = {
      team_id: teamId,
      message_sender: 'b',
      message: 'Say hi to the newcomer',
      sendtoworkspace: true,
    };
    expect((await post('/actions/createautomation', auto)).statusCode).toBe(409);
    expect(
      (await post('/actions/createautomation', { ...auto, confirm_recipients: members.length })).statusCode,
    ).toBe(201);
  });
});

describe('planned schedules', () => {
  it('daily whole-workspace schedules are accepted while a day still fits in the budget, then refused (429)', async () => {
    const budget = 3 * members.length;
    const made: number[] = [];
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const res = await post('/actions/createscheduled', {
        team_id: teamId,
        trigger_name: `Everyone ${i}`,
        message_sender: 'b',
        message: `Daily news ${i}`,
        sendtoworkspace: true,
        confirm_recipients: members.length,
        frequency: 'Everyday',
        time: '07:00',
      });
      if (res.statusCode === 201) made.push(res.json().data.id);
      else refused = res;
    }
    expect(made.length).toBeLessThan(3);
    expect(refused!.statusCode).toBe(429);
    const answer = refused!.json();
    expect(answer).toMatchObject({ code: 'SEND_BUDGET_EXCEEDED', budget, needed: members.length });
    const planned = budget - answer.remaining;
    expect(planned).toBeLessThanOrEqual(budget);
    expect(planned + members.length).toBeGreaterThan(budget);
    expect(answer.message).toBe(
      `Not scheduled: the workspace's schedules already send ${planned} messages on Mondays; this one would add ${members.length}, over its daily budget of ${budget}`,
    );
    // A weekly one on a day with room is fine.
    const sunday = await post('/actions/createscheduled', {
      team_id: teamId,
      trigger_name: 'Weekly, one member',
      message_sender: 'b',
      message: 'Sunday note',
      dms: { members: [members[6]] },
      frequency: 'Weekly',
      days: ['sun'],
      time: '07:00',
    });
    expect(sunday.statusCode).toBe(201);
  });
});

describe('the daily budget', () => {
  const budget = async () => (await get(`/delivery/budget/${otherTeam}`, stranger.token)).json().data;

  it('is visible; a send over what is left is a 429 naming it, and queues nothing', async () => {
    expect((await get(`/delivery/budget/${otherTeam}`)).statusCode).toBe(403);
    const start = await budget();
    expect(start).toMatchObject({
      limited: true,
      budget: 3 * otherMembers.length,
      window_hours: 24,
      confirm_over: 10,
    });
    expect(start.remaining).toBe(start.budget - start.used);
    const everyone = (text: string) =>
      post(
        '/quickaction/sendmessage',
        {
          team_id: otherTeam,
          sender: 'bot',
          message: text,
          sendtoworkspace: true,
          confirm_recipients: otherMembers.length,
        },
        { token: stranger.token },
      );
    let left = start.remaining as number;
    for (let i = 0; left >= otherMembers.length; i++) {
      const res = await everyone(`Everyone ${i}`);
      expect(res.statusCode).toBe(202);
      left -= otherMembers.length;
      expect(res.json().data.budget_remaining).toBe(left);
    }
    const before = (await receipts(otherTeam, stranger.token)).length;
    const over = await everyone('One time too many');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'SEND_BUDGET_EXCEEDED',
      remaining: left,
      budget: start.budget,
      needed: otherMembers.length,
    });
    expect(over.json().message).toContain(`has ${left} of ${start.budget} left`);
    expect((await receipts(otherTeam, stranger.token)).length).toBe(before);
    expect((await budget()).remaining).toBe(left);
    await drainDeliveries(env, otherTeam);
    expect(countOf('One time too many', otherTeam)).toBe(0);
  });

  it('a scheduled run over the budget is skipped: a failed receipt says why, the run is recorded as failed', async () => {
    let clockMs = Date.parse('2027-06-01T05:00:00Z');
    const ctx = env.t.ctx;
    const actions = actionsService({
      db: ctx.database.db,
      audience: ctx.services.audience,
      delivery: ctx.services.delivery,
      timezoneOf: async () => 'Europe/London',
      graceMs: 60 * 60_000,
      logger: createLogger('silent'),
      now: () => clockMs,
    });
    const left = (await budget()).remaining as number;
    expect(otherMembers.length).toBeGreaterThan(left);
    const daily = await actions.createScheduled(stranger.userid, {
      team_id: otherTeam,
      trigger_name: 'Too big today',
      message_sender: 'bot',
      message: 'Over the budget',
      images: [],
      channel_ids: [],
      dms: { members: [], tags: [], channels: [] },
      sendtoworkspace: true,
      confirm_recipients: otherMembers.length,
      frequency: 'Everyday',
      time: '07:00',
      days: [],
    } as any);
    clockMs = Date.parse('2027-06-01T06:00:30Z');
    await actions.planDueSchedules();
    while ((await actions.sendDueRuns()) > 0);
    const [run] = (
      (await ctx.database.db.execute(
        sql`select status, error, receipt_id::int as receipt_id from action_runs where action_id = ${daily.id}`,
      )) as any
    ).rows;
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/daily budget has \d+ of \d+ left/);
    const receipt = (await receipts(otherTeam, stranger.token)).find((r) => r.id === run.receipt_id);
    expect(receipt).toMatchObject({ total_recipient_count: 0, error: run.error });
    await drainDeliveries(env, otherTeam);
    expect(countOf('Over the budget', otherTeam)).toBe(0);
  });
});
