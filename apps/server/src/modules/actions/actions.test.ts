import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createLogger } from '../../lib/logger.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
  drainDeliveries as drainAll,
  deliverEvent,
} from '../../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from '../delivery/engine.ts';
import { actionsService, type ActionsService } from './service.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let members: string[];
let channel: string;
/** The service on a clock the test moves (the process's own runs on the real one). */
let clockMs = Date.parse('2027-03-19T12:00:00Z');
let actions: ActionsService;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 21, members: 30, channels: 3, days: 2 },
        { seed: 22, members: 8, channels: 2, days: 2 },
      ],
    },
    { DELIVERY_RETRY_BASE_MS: '20' },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  members = [...env.emu.truth(teamId).members()]
    .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
    .map((m: any) => m.id);
  channel = (env.emu.truth(teamId).channels() as any[]).find(
    (c) => !c.is_private && !c.is_im && !c.is_archived,
  ).id;
  const ctx = env.t.ctx;
  actions = actionsService({
    db: ctx.database.db,
    audience: ctx.services.audience,
    delivery: ctx.services.delivery,
    timezoneOf: async () => 'Europe/London',
    graceMs: 60 * 60_000,
    logger: createLogger('silent'),
    now: () => clockMs,
  });
}, 120_000);
afterAll(() => env.close());

const call = (
  method: 'POST' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  payload?: object,
  token = user.token,
) => env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), payload });

/** Messages our receipts put in Slack, per receipt id. */
function sentByReceipt(team = teamId) {
  const per = new Map<number, any[]>();
  for (const m of env.emu.truth(team).messages() as Iterable<any>) {
    if (m.metadata?.event_type !== DELIVERY_EVENT_TYPE) continue;
    const id = m.metadata.event_payload.receipt;
    per.set(id, [...(per.get(id) ?? []), m]);
  }
  return per;
}

const drainDeliveries = () => drainAll(env, teamId);

const runsOf = async (actionId: number) =>
  (
    (await env.t.ctx.database.db.execute(
      sql`select run_key, status, receipt_id::int as receipt_id from action_runs where action_id = ${actionId} order by id`,
    )) as any
  ).rows as { run_key: string; status: string; receipt_id: number | null }[];

describe('schedules', () => {
  const base = () => ({
    team_id: teamId,
    trigger_name: 'Weekly digest',
    message_sender: 'b',
    message: 'Good morning!',
    dms: { members: [members[0]] },
  });

  it('a weekly schedule runs at 09:00 London on both sides of the spring change, once per run', async () => {
    clockMs = Date.parse('2027-03-19T12:00:00Z'); // Friday, GMT (dates after today: the process's own tick leaves them alone)
    const row = await actions.createScheduled(user.userid, {
      ...base(),
      frequency: 'Weekly',
      days: ['mon'],
      time: '09:00',
      images: [],
      channel_ids: [],
      dms: { members: [members[0]!], tags: [], channels: [] },
      sendtoworkspace: false,
      message_sender: 'bot',
    } as any);
    expect(row.next_run).toBe('2027-03-22T09:00:00.000Z');
    const expected = ['2027-03-22T09:00:00.000Z', '2027-03-29T08:00:00.000Z', '2027-04-05T08:00:00.000Z'];
    for (const at of expected) {
      clockMs = Date.parse(at) + 30_000;
      await actions.planDueSchedules();
      await actions.planDueSchedules(); // a second worker finds nothing more
      await actions.sendDueRuns();
      await actions.sendDueRuns();
    }
    const runs = await runsOf(row.id);
    expect(runs.map((r) => r.run_key)).toEqual(expected);
    expect(runs.every((r) => r.status === 'sent' && r.receipt_id)).toBe(true);
    await drainDeliveries();
    const per = sentByReceipt();
    for (const r of runs) expect(per.get(r.receipt_id!)).toHaveLength(1);
  });

  it('missed runs: within the grace sent once, beyond it skipped, and never a burst', async () => {
    clockMs = Date.parse('2027-06-01T05:00:00Z');
    const daily = await actions.createScheduled(user.userid, {
      ...base(),
      frequency: 'Everyday',
      time: '07:00',
      days: [],
      images: [],
      channel_ids: [],
      dms: { members: [members[1]!], tags: [], channels: [] },
      sendtoworkspace: false,
      message_sender: 'bot',
    } as any);
    expect(daily.next_run).toBe('2027-06-01T06:00:00.000Z'); // 07:00 BST
    // Down from 06:00 UTC until 06:40 (07:40 London, 40 minutes late): due, sent once.
    clockMs = Date.parse('2027-06-01T06:40:00Z');
    await actions.planDueSchedules();
    // Down for three days: at 11:00 UTC on 4 June the run of 2 June is two days late: skipped, and the next
    // run is 5 June (not a burst of the missed days).
    clockMs = Date.parse('2027-06-04T11:00:00Z');
    await actions.planDueSchedules();
    const runs = await runsOf(daily.id);
    expect(runs).toEqual([
      expect.objectContaining({ run_key: '2027-06-01T06:00:00.000Z', status: 'due' }),
      expect.objectContaining({ run_key: '2027-06-02T06:00:00.000Z', status: 'skipped' }),
    ]);
    const [after] = await actions.list(teamId, 'schedule').then((l) => l.filter((r) => r.id === daily.id));
    expect(after!.next_run).toBe('2027-06-05T06:00:00.000Z');
  });

  it('a run whose planning began and never finished is tried once more, then skipped with a log line', async () => {
    const db = env.t.ctx.database.db;
    let logged = '';
    const watched = actionsService({
      db,
      audience: env.t.ctx.services.audience,
      delivery: env.t.ctx.services.delivery,
      timezoneOf: async () => 'Europe/London',
      graceMs: 60 * 60_000,
      logger: createLogger('info', { write: (line: string) => void (logged += line) }),
      now: () => clockMs,
    });
    clockMs = Date.parse('2027-07-01T05:00:00Z');
    const make = () =>
      watched.createScheduled(user.userid, {
        ...base(),
        frequency: 'Everyday',
        time: '07:00',
        days: [],
        images: [],
        channel_ids: [],
        dms: { members: [members[2]!], tags: [], channels: [] },
        sendtoworkspace: false,
        message_sender: 'bot',
      } as any);
    const [once, twice] = [await make(), await make()];
    // As a process killed in the middle of planning them leaves them: one planning begun for the first (the
    // second attempt is allowed), two for the other (no more).
    const key = (id: number) => `${id}@2027-07-01T06:00:00.000Z`;
    await db.execute(sql`insert into due_attempts (kind, key, attempts)
      values ('schedule', ${key(once.id)}, 1), ('schedule', ${key(twice.id)}, 2)`);
    clockMs = Date.parse('2027-07-01T06:01:00Z');
    await watched.planDueSchedules();
    expect(await runsOf(once.id)).toEqual([
      expect.objectContaining({ run_key: '2027-07-01T06:00:00.000Z', status: 'due' }),
    ]);
    expect(await runsOf(twice.id)).toEqual([
      expect.objectContaining({ run_key: '2027-07-01T06:00:00.000Z', status: 'skipped' }),
    ]);
    const lines = logged
      .split('\n')
      .filter((l) => l.includes('planning never finished'))
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ kind: 'schedule', id: twice.id, attempts: 2 })]);
    // Both go on to the next day, and the ledger is empty again.
    const list = await watched.list(teamId, 'schedule');
    for (const id of [once.id, twice.id])
      expect(list.find((r) => r.id === id)!.next_run).toBe('2027-07-02T06:00:00.000Z');
    const left = (await db.execute(sql`select count(*)::int as n from due_attempts`)) as any;
    expect(left.rows[0].n).toBe(0);
    await drainDeliveries();
  });

  it('a one-time message 20 minutes ahead is accepted and runs once; 10 minutes or 31 days ahead are refused', async () => {
    const tz = 'Europe/London';
    const fmt = (t: number) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-GB', {
          timeZone: tz,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
        })
          .formatToParts(new Date(t))
          .map((x) => [x.type, x.value]),
      );
      return { date: `${p.day}/${p.month}/${p.year}`, time: `${p.hour}:${p.minute}` };
    };
    clockMs = Date.parse('2027-07-01T10:00:00Z');
    const body = (t: number) => ({
      ...base(),
      frequency: 'onetime',
      post_at: fmt(t),
      images: [],
      channel_ids: [],
      dms: { members: [members[2]!], tags: [], channels: [] },
      sendtoworkspace: false,
      message_sender: 'bot',
    });
    await expect(actions.createScheduled(user.userid, body(clockMs + 10 * 60_000) as any)).rejects.toThrow(
      'Invalid date and time range',
    );
    await expect(
      actions.createScheduled(user.userid, body(clockMs + 31 * 86_400_000) as any),
    ).rejects.toThrow('Invalid date and time range');
    await expect(actions.createScheduled(user.userid, body(clockMs - 60 * 60_000) as any)).rejects.toThrow(
      "Scheduled time can't be less than current time.",
    );
    const once = await actions.createScheduled(user.userid, body(clockMs + 20 * 60_000) as any);
    clockMs += 21 * 60_000;
    for (let i = 0; i < 3; i++) {
      await actions.planDueSchedules();
      await actions.sendDueRuns();
    }
    const runs = await runsOf(once.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe('sent');
    const [row] = (await actions.list(teamId, 'schedule')).filter((r) => r.id === once.id);
    expect(row).toMatchObject({ active: false, next_run: null, frequency: 'onetime' });
  });

  it('two workers split a minute of due runs by claiming them: each run sent once; a failed send comes back after its claim', async () => {
    clockMs = Date.parse('2027-08-02T08:00:00Z');
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        (
          await actions.createScheduled(user.userid, {
            ...base(),
            trigger_name: `Split ${i}`,
            frequency: 'Everyday',
            time: '10:30',
            days: [],
            images: [],
            channel_ids: [],
            dms: { members: [members[i % members.length]!], tags: [], channels: [] },
            sendtoworkspace: false,
            message_sender: 'bot',
          } as any)
        ).id,
      );
    clockMs = Date.parse('2027-08-02T09:30:20Z'); // 10:30:20 London
    await actions.planDueSchedules();
    const ctx = env.t.ctx;
    let failOnce = true;
    const worker = (delivery: typeof ctx.services.delivery) =>
      actionsService({
        db: ctx.database.db,
        audience: ctx.services.audience,
        delivery,
        timezoneOf: async () => 'Europe/London',
        graceMs: 60 * 60_000,
        claimMs: 60_000,
        logger: createLogger('silent'),
        now: () => clockMs,
      });
    const a = worker(ctx.services.delivery);
    const b = worker({
      ...ctx.services.delivery,
      // The first send of its first batch fails as a lost connection would (the rest of the batch goes on).
      sendMany: async (reqs) => {
        if (!failOnce) return ctx.services.delivery.sendMany(reqs);
        failOnce = false;
        return [
          { error: new Error('database connection lost') },
          ...(await ctx.services.delivery.sendMany(reqs.slice(1))),
        ];
      },
    });
    const claimed = await Promise.all([a.sendDueRuns(4), b.sendDueRuns(4), a.sendDueRuns(4)]);
    expect(claimed.reduce((x, y) => x + y, 0)).toBe(12); // disjoint claims: 4 + 4 + 4
    const runs = (await Promise.all(ids.map(runsOf))).flat();
    expect(runs).toHaveLength(12);
    expect(runs.filter((r) => r.status === 'sent')).toHaveLength(11);
    // The failed one stays due and held for 30 s: nobody takes it at once, then it is sent.
    expect(await a.sendDueRuns()).toBe(0);
    clockMs += 31_000;
    expect(await b.sendDueRuns()).toBe(1);
    const after = (await Promise.all(ids.map(runsOf))).flat();
    expect(after.every((r) => r.status === 'sent' && r.receipt_id)).toBe(true);
    expect(new Set(after.map((r) => r.receipt_id)).size).toBe(12);
  });

  it('the API: the documented texts, validation and another workspace refused', async () => {
    const sched = (over: object) =>
      call('POST', '/actions/createscheduled', {
        team_id: teamId,
        trigger_name: 'Hello',
        message_sender: 'b',
        message: 'hi',
        dms: { members: [members[0]] },
        frequency: 'Everyday',
        time: '09:00',
        ...over,
      });
    expect((await sched({})).statusCode).toBe(201);
    expect((await sched({ dms: {} })).json().message).toBe(
      'Select at least one member and/or channel and/or tag',
    );
    expect((await sched({ frequency: 'Weekly', days: [] })).json().message).toBe('No field Can be empty');
    expect((await sched({ message: '  ' })).json().message).toBe('The message cannot be empty!');
    expect(
      (await sched({ frequency: 'onetime', post_at: { date: '30/02/2027', time: '09:00' } })).json().message,
    ).toBe('Invalid date and time');
    expect((await sched({ time: '25:00' })).json().message).toBe('Invalid date and time');
    expect((await sched({ team_id: otherTeam })).statusCode).toBe(403);
    const list = await call('GET', `/actions/getscheduled/${teamId}?search=hello`);
    expect(list.statusCode).toBe(200);
    const ids = list.json().data.map((r: any) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(list.json().data[0]).toMatchObject({
      trigger_name: 'Hello',
      frequency: 'Everyday',
      time: '09:00',
    });
    expect((await call('GET', `/actions/getscheduled/${otherTeam}`)).statusCode).toBe(403);
  });
});

describe('automations', () => {
  /** Delivers an event to the server as Slack does (signed), under a given event id. */
  const deliver = (event: object, eventId: string) => deliverEvent(env, teamId, event, eventId);

  it('a join DMs the new member exactly once, also when team_join arrives three times; edit and delete', async () => {
    const created = await call('POST', '/actions/createautomation', {
      team_id: teamId,
      message_sender: 'b',
      message: 'Welcome aboard!',
      send_dm: true,
    });
    expect(created.statusCode).toBe(201);
    const auto = created.json().data;
    expect(auto).toMatchObject({
      trigger_name: 'Member Join',
      send_dm: true,
      bulkdm: false,
      message_sender: 'b',
    });

    // A new member through the emulator's admin API: its team_join reaches the server.
    const added = await fetch(`${env.emu.url}/_admin/teams/${teamId}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ realName: 'Nora Newcomer', email: 'nora@example.com' }),
    });
    const newcomer = ((await added.json()) as { id: string }).id;
    await settleEvents(env);
    // Slack redelivers the same join twice more: once as a retry (same event id), once under a new id.
    const join = env.emu
      .deliveries()
      .find((d) => d.type === 'team_join' && JSON.stringify(d.envelope).includes(newcomer))!;
    const envelope = join.envelope as { event: object; event_id: string };
    await deliver(envelope.event, envelope.event_id);
    await deliver(envelope.event, 'Ev0JOINAGAIN2');
    await settleEvents(env);
    await env.t.ctx.services.actions.sendDueRuns();
    await drainDeliveries();

    const ims = new Map<string, string[]>();
    for (const c of env.emu.truth(teamId).channels() as any[]) if (c.is_im) ims.set(c.id, c.members);
    const welcomes = [...(env.emu.truth(teamId).messages() as Iterable<any>)].filter(
      (m) => m.text === 'Welcome aboard!' && ims.get(m.channel)?.includes(newcomer),
    );
    expect(welcomes).toHaveLength(1);

    const edit = await call('PATCH', '/actions/updateactions', {
      team_id: teamId,
      id: auto.id,
      channel_ids: [channel],
      message: 'Welcome, friend!',
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().data).toMatchObject({ message: 'Welcome, friend!', channel_ids: [channel] });
    expect((await call('DELETE', `/actions/deleteaction/${otherTeam}/${auto.id}`)).statusCode).toBe(403);
    expect((await call('DELETE', `/actions/deleteaction/${teamId}/${auto.id}`)).statusCode).toBe(200);
    expect(
      (await call('GET', `/actions/getautomations/${teamId}`)).json().data.find((r: any) => r.id === auto.id),
    ).toBe(undefined);
  });

  it('bulk-DM automations cannot be edited (spec tooltip text); creating needs a target', async () => {
    const everyone = {
      team_id: teamId,
      message_sender: 'b',
      message: 'Say hello to our newest member!',
      sendtoworkspace: true,
    };
    // The whole workspace names its count (docs/product/sending.md, "Sending limits").
    const ask = await call('POST', '/actions/createautomation', everyone);
    expect(ask.statusCode).toBe(409);
    const bulk = await call('POST', '/actions/createautomation', {
      ...everyone,
      confirm_recipients: ask.json().recipients,
    });
    expect(bulk.json().data.bulkdm).toBe(true);
    const edit = await call('PATCH', '/actions/updateactions', {
      team_id: teamId,
      id: bulk.json().data.id,
      message: 'x',
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe('Edit option is not availble for bulk DM');
    const none = await call('POST', '/actions/createautomation', {
      team_id: teamId,
      message_sender: 'b',
      message: 'x',
    });
    expect(none.json().message).toBe(
      'Select at least one member and/or channel and/or tag and/or DM the new user',
    );
  });
});
