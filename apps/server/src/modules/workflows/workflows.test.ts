import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { WORKFLOW_TEXTS } from '@flywheel/shared/workflows';
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
import { workflowsService, type WorkflowsService } from './service.ts';
import { refreshLevels } from '../activity/levels.ts';
import { addDays, localDay } from '../../lib/days.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let members: string[];
let channel: string;
let clockMs = Date.parse('2027-05-01T10:00:00Z');
/** The service on a clock the test moves; made anew to stand for a restart (its state is all in the database). */
let make: (claimMs?: number) => WorkflowsService;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 31, members: 20, channels: 3, days: 2 },
        { seed: 32, members: 6, channels: 2, days: 2 },
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
  make = (claimMs?: number) =>
    workflowsService({
      db: ctx.database.db,
      audience: ctx.services.audience,
      delivery: ctx.services.delivery,
      timezoneOf: async () => 'Europe/London',
      claimMs,
      wakeAt: async (at) => void wakes.push(at.getTime()),
      logger: createLogger('silent'),
      now: () => clockMs,
    });
}, 120_000);
/** The times the services asked for a sender to be woken (a step written with a delay). */
const wakes: number[] = [];
afterAll(() => env.close());

const call = (
  method: 'POST' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  payload?: object,
  token = user.token,
) => env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), payload });

const deliver = (event: object, eventId: string) => deliverEvent(env, teamId, event, eventId);

const drainDeliveries = () => drainAll(env, teamId);

/** Our messages in Slack's DMs, per member: [text, receipt] in the order Slack got them. */
function dmsByMember(): Map<string, { text: string; receipt: number; blocks: any[] }[]> {
  const ims = new Map<string, string[]>();
  for (const c of env.emu.truth(teamId).channels() as any[]) if (c.is_im) ims.set(c.id, c.members);
  const per = new Map<string, { text: string; receipt: number; blocks: any[] }[]>();
  for (const m of env.emu.truth(teamId).messages() as Iterable<any>) {
    if (m.metadata?.event_type !== DELIVERY_EVENT_TYPE) continue;
    const whom = ims.get(m.channel)?.find((u) => u !== m.user && !u.startsWith('B'));
    if (!whom) continue;
    for (const u of ims.get(m.channel)!)
      per.set(u, [
        ...(per.get(u) ?? []),
        { text: m.text, receipt: m.metadata.event_payload.receipt, blocks: m.blocks ?? [] },
      ]);
  }
  return per;
}

const question = { question: 'How is it going?', type: 'descriptive' };
const messageTask = (title: string, text: string, delay: object | null = null, extra: object = {}) => ({
  type: 'message',
  msgTitle: title,
  text,
  delay,
  sendToSelectedUsers: true,
  ...extra,
});
const formTask = (title: string, delay: object | null = null, extra: object = {}) => ({
  type: 'form',
  formTitle: title,
  formDescription: 'Tell us how your first days went',
  questions: [question],
  delay,
  sendToSelectedUsers: true,
  ...extra,
});
const joinWorkflow = (name: string, tasks: object[]) => ({
  team_id: teamId,
  workflow_name: name,
  sender: 'b',
  trigger_type: 'workspace_join',
  tasks,
});

describe('validation and tenancy', () => {
  const valid = () => joinWorkflow('Onboarding', [messageTask('Welcome', 'Hello!')]);
  const cases: [string, (b: any) => void, string][] = [
    ['blank name', (b) => (b.workflow_name = '   '), WORKFLOW_TEXTS.nameEmpty],
    ['no sender', (b) => delete b.sender, WORKFLOW_TEXTS.chooseSender],
    ['admin sender without admin', (b) => (b.sender = 'a'), WORKFLOW_TEXTS.chooseAdmin],
    ['no type', (b) => delete b.trigger_type, WORKFLOW_TEXTS.chooseType],
    ['channel join without channel', (b) => (b.trigger_type = 'channel_join'), WORKFLOW_TEXTS.chooseChannel],
    ['activity without days', (b) => (b.trigger_type = 'activity'), WORKFLOW_TEXTS.daysEmpty],
    [
      'activity days below 0',
      (b) => ((b.trigger_type = 'inactivity'), (b.days = -1)),
      WORKFLOW_TEXTS.daysRange,
    ],
    [
      'activity days above 365',
      (b) => ((b.trigger_type = 'activity'), (b.days = 366)),
      WORKFLOW_TEXTS.daysRange,
    ],
    [
      'time without date',
      (b) => ((b.trigger_type = 'time'), (b.trigger_at = { time: '10:00' })),
      WORKFLOW_TEXTS.dateMissing,
    ],
    [
      'time with a mask placeholder',
      (b) => ((b.trigger_type = 'time'), (b.trigger_at = { date: '12/05/2027', time: 'HH:MM' })),
      WORKFLOW_TEXTS.timeMissing,
    ],
    ['no tasks', (b) => (b.tasks = []), WORKFLOW_TEXTS.noTasks],
    ['task without type', (b) => delete b.tasks[0].type, WORKFLOW_TEXTS.chooseActionType],
    [
      'task without recipient',
      (b) => (b.tasks[0].sendToSelectedUsers = false),
      WORKFLOW_TEXTS.chooseRecipient,
    ],
    ['message without title', (b) => (b.tasks[0].msgTitle = ' '), WORKFLOW_TEXTS.messageTitleEmpty],
    ['message without text', (b) => (b.tasks[0].text = '  '), WORKFLOW_TEXTS.messageEmpty],
    ['form without title', (b) => (b.tasks = [formTask(' ')]), WORKFLOW_TEXTS.formTitleEmpty],
    [
      'form without description',
      (b) => (b.tasks = [formTask('F', null, { formDescription: '' })]),
      WORKFLOW_TEXTS.formDescriptionEmpty,
    ],
    [
      'form without questions',
      (b) => (b.tasks = [formTask('F', null, { questions: [] })]),
      WORKFLOW_TEXTS.noQuestions,
    ],
    [
      'question without heading',
      (b) => (b.tasks = [formTask('F', null, { questions: [{ question: '', type: 'descriptive' }] })]),
      WORKFLOW_TEXTS.questionEmpty,
    ],
    [
      'multiple choice without options',
      (b) =>
        (b.tasks = [formTask('F', null, { questions: [{ question: 'Pick', type: 'mcq', options: [] }] })]),
      WORKFLOW_TEXTS.optionEmpty,
    ],
    ['delay without unit', (b) => (b.tasks[0].delay = { delay_in_secs: 60 }), WORKFLOW_TEXTS.chooseDelayUnit],
    [
      'delay of 0',
      (b) => (b.tasks[0].delay = { delay_unit: 'minutes', delay_in_secs: 0 }),
      WORKFLOW_TEXTS.delayPositive,
    ],
    [
      'delay over 43,200 minutes',
      (b) => (b.tasks[0].delay = { delay_unit: 'minutes', delay_in_secs: 43_201 * 60 }),
      WORKFLOW_TEXTS.delayMax('minutes'),
    ],
    [
      'delay over 720 hours',
      (b) => (b.tasks[0].delay = { delay_unit: 'hours', delay_in_secs: 721 * 3600 }),
      WORKFLOW_TEXTS.delayMax('hours'),
    ],
    [
      'delay over 30 days',
      (b) => (b.tasks[0].delay = { delay_unit: 'days', delay_in_secs: 31 * 86_400 }),
      WORKFLOW_TEXTS.delayMax('days'),
    ],
    [
      'more than ten steps after the trigger',
      (b) =>
        (b.tasks = Array.from({ length: 6 }, (_, i) =>
          messageTask(`M${i}`, 'x', { delay_unit: 'hours', delay_in_secs: 3600 }),
        )),
      WORKFLOW_TEXTS.tooManyTasks,
    ],
    [
      'users in criteria on a time trigger',
      (b) => ((b.trigger_type = 'time'), (b.trigger_at = { date: '12/05/2030', time: '10:00' })),
      WORKFLOW_TEXTS.criteriaNotForTime,
    ],
    [
      "a trigger tag the trigger doesn't have",
      (b) => ((b.tasks[0].triggerTags = [1]), (b.tasks[0].sendToSelectedUsers = false)),
      WORKFLOW_TEXTS.unknownTriggerAudience,
    ],
  ];
  for (const [name, mutate, message] of cases)
    it(`refuses ${name}: '${message}'`, async () => {
      const body = valid();
      mutate(body);
      const res = await call('POST', '/workflows/createworkflow', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });

  it('a time trigger must lie 15 minutes to 30 days ahead, as a real date (DD/MM/YYYY or DD-MM-YYYY)', async () => {
    const workspaceTz = await env.t.ctx.services.workspaces.timezone(teamId);
    expect(workspaceTz).toBeTruthy();
    const timeBody = (trigger_at: object) => ({
      team_id: teamId,
      workflow_name: 'Launch day',
      sender: 'b',
      trigger_type: 'time',
      trigger_at,
      tasks: [
        messageTask('Launch', 'We are live!', null, { sendToSelectedUsers: false, channels: [channel] }),
      ],
    });
    const tz = workspaceTz;
    const at = (ms: number) => {
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
          .formatToParts(new Date(ms))
          .map((x) => [x.type, x.value]),
      );
      return { date: `${p.day}-${p.month}-${p.year}`, time: `${p.hour}:${p.minute}` };
    };
    expect(
      (
        await call('POST', '/workflows/createworkflow', timeBody({ date: '31/02/2027', time: '10:00' }))
      ).json().message,
    ).toBe(WORKFLOW_TEXTS.invalidDateTime);
    expect(
      (await call('POST', '/workflows/createworkflow', timeBody(at(Date.now() + 10 * 60_000)))).json()
        .message,
    ).toBe(WORKFLOW_TEXTS.invalidRange);
    expect(
      (await call('POST', '/workflows/createworkflow', timeBody(at(Date.now() + 31 * 86_400_000)))).json()
        .message,
    ).toBe(WORKFLOW_TEXTS.invalidRange);
    const ok = await call('POST', '/workflows/createworkflow', timeBody(at(Date.now() + 2 * 86_400_000)));
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      message: WORKFLOW_TEXTS.created,
      data: { trigger_type: 'time', status: true },
    });
    // A time trigger cannot be stopped (the product's tooltip), only deleted.
    const stop = await call('PATCH', '/workflows/pauseworkflow', {
      team_id: teamId,
      workflow_id: ok.json().data.workflow_id,
      status: false,
    });
    expect(stop.statusCode).toBe(400);
    expect(stop.json().message).toBe(WORKFLOW_TEXTS.cannotStopTime);
    expect((await call('DELETE', `/workflows/${teamId}/${ok.json().data.workflow_id}`)).json().message).toBe(
      WORKFLOW_TEXTS.deleted,
    );
  });

  it("unknown channels, tags and segments are 400s naming them; another admin's workspace is refused", async () => {
    const body = { ...valid(), trigger_type: 'channel_join', channel: 'C0NOTHERE' };
    expect((await call('POST', '/workflows/createworkflow', body)).json().message).toBe(
      'No channel of this workspace matches: C0NOTHERE',
    );
    const unknownDm = valid();
    (unknownDm.tasks[0] as any).dms = { members: ['U0NOBODY'] };
    expect((await call('POST', '/workflows/createworkflow', unknownDm)).json().message).toMatch(
      /^Step 1 \(Welcome\): No member of this workspace matches: U0NOBODY/,
    );
    const timeWithTag = {
      ...valid(),
      trigger_type: 'time',
      trigger_at: { date: '01/01/2030', time: '10:00' },
      tags: [999_999],
    };
    (timeWithTag.tasks[0] as any).sendToSelectedUsers = false;
    (timeWithTag.tasks[0] as any).triggerTags = [999_999];
    // Past 30 days: the range is checked first, then the references.
    expect((await call('POST', '/workflows/createworkflow', timeWithTag)).statusCode).toBe(400);

    const created = await call('POST', '/workflows/createworkflow', valid());
    expect(created.statusCode).toBe(201);
    const id = created.json().data.workflow_id;
    // One workflow: the row as the list has it, and each task's content as it was created, with its id.
    const detail = await call('GET', `/workflows/getworkflow/${teamId}/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toEqual({
      ...created.json().data,
      task_contents: [
        expect.objectContaining({
          type: 'message',
          msgTitle: 'Welcome',
          text: 'Hello!',
          sendToSelectedUsers: true,
          delay: null,
          task_id: created.json().data.tasks[0].task_id,
        }),
      ],
    });
    expect((await call('POST', '/workflows/createworkflow', valid(), stranger.token)).statusCode).toBe(403);
    expect(
      (await call('GET', `/workflows/getworkflows/${teamId}`, undefined, stranger.token)).statusCode,
    ).toBe(403);
    expect(
      (await call('GET', `/workflows/getworkflow/${teamId}/${id}`, undefined, stranger.token)).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/workflows/${teamId}/${id}`, undefined, stranger.token)).statusCode).toBe(
      403,
    );
    // The stranger's own workspace does not have it.
    expect(
      (await call('GET', `/workflows/getworkflow/${otherTeam}/${id}`, undefined, stranger.token)).statusCode,
    ).toBe(404);
    expect(
      (await call('DELETE', `/workflows/${otherTeam}/${id}`, undefined, stranger.token)).statusCode,
    ).toBe(404);
    expect((await call('GET', `/workflows/gettriggerinfo/${teamId}/abc`)).statusCode).toBe(400);
    expect((await call('DELETE', `/workflows/${teamId}/${id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/workflows/${teamId}/${id}`)).statusCode).toBe(404);
  });
});

describe('a workspace-join workflow on an injected clock', () => {
  it('message -> 2 days -> form -> 3 hours -> message: each step at its time for three members, once, through a restart, a crash, a pause and a delete', async () => {
    // Three newcomers: added first, so their real joins happen before the workflow exists.
    const newcomers: string[] = [];
    for (const name of ['Ada Early', 'Ben Middle', 'Cleo Late']) {
      const res = await fetch(`${env.emu.url}/_admin/teams/${teamId}/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ realName: name }),
      });
      newcomers.push(((await res.json()) as { id: string }).id);
    }
    await settleEvents(env);

    const created = await call(
      'POST',
      '/workflows/createworkflow',
      joinWorkflow('Onboarding', [
        messageTask('Welcome', 'Welcome to the community!'),
        formTask('First days', { delay_unit: 'days', delay_in_secs: 2 * 86_400 }),
        messageTask('Check in', 'How are you settling in?', { delay_unit: 'hours', delay_in_secs: 3 * 3600 }),
      ]),
    );
    expect(created.statusCode).toBe(201);
    const wf = created.json().data;
    expect(wf.tasks.map((t: any) => t.summary)).toEqual([
      'Send the message "Welcome" with no delay',
      'Send the form "First days" after 2 day delay',
      'Send the message "Check in" after 3 hour delay',
    ]);
    // A second workflow, deleted while its steps wait: nothing of it is sent.
    const doomed = (
      await call(
        'POST',
        '/workflows/createworkflow',
        joinWorkflow('Doomed', [
          messageTask('Later', 'You should never see this', { delay_unit: 'hours', delay_in_secs: 3600 }),
        ]),
      )
    ).json().data;

    // They join (as Slack would tell it) at T0, T0 + 5 h and T0 + 30 h, in the future of the process's own clock.
    const T0 = Date.parse('2027-05-01T10:00:00Z');
    const joins = [T0, T0 + 5 * 3600_000, T0 + 30 * 3600_000];
    // The user objects Slack sent with their real joins.
    const userOf = (id: string) =>
      (
        env.emu.deliveries().find((d) => d.type === 'team_join' && JSON.stringify(d.envelope).includes(id))!
          .envelope as any
      ).event.user;
    for (const [i, id] of newcomers.entries()) {
      const event = { type: 'team_join', user: userOf(id), event_ts: (joins[i]! / 1000).toFixed(6) };
      await deliver(event, `Ev0WFJOIN${i}`);
      await deliver(event, `Ev0WFJOIN${i}`); // Slack's retry: the same firing
    }
    await settleEvents(env);

    // The doomed workflow waits an hour after each join: deleting it now cancels its three pending steps.
    const pendingOf = async (id: number) =>
      (
        (await env.t.ctx.database.db.execute(
          sql`select count(*)::int as n from workflow_steps where workflow_id = ${id} and status = 'due'`,
        )) as any
      ).rows[0].n;
    expect(await pendingOf(doomed.workflow_id)).toBe(3);
    expect((await call('DELETE', `/workflows/${teamId}/${doomed.workflow_id}`)).statusCode).toBe(200);
    expect(await pendingOf(doomed.workflow_id)).toBe(0);

    const texts = () => {
      const per = dmsByMember();
      return newcomers.map((m) => (per.get(m) ?? []).map((x) => x.text.split('\n')[0]));
    };
    let svc = make();
    const at = async (ms: number) => {
      clockMs = ms;
      await svc.planTriggers();
      while ((await svc.sendDueSteps(50)) > 0);
      await drainDeliveries();
    };

    wakes.length = 0;
    await at(T0 + 60_000);
    expect(texts()).toEqual([['Welcome to the community!'], [], []]);
    // Ada's form is due two days after her welcome: a sender is woken then, not at some later minute's tick.
    expect(wakes).toEqual([T0 + 60_000 + 2 * 86_400_000]);
    await at(T0 + 5 * 3600_000 + 60_000);
    expect(texts()).toEqual([['Welcome to the community!'], ['Welcome to the community!'], []]);

    // A restart: a new service on the same database (nothing else is kept).
    svc = make();
    await at(T0 + 30 * 3600_000 + 60_000);
    expect(texts()).toEqual([
      ['Welcome to the community!'],
      ['Welcome to the community!'],
      ['Welcome to the community!'],
    ]);
    // Two days after Ada's welcome: her form; not yet Ben's.
    await at(T0 + 2 * 86_400_000 + 2 * 60_000);
    expect(texts()[0]).toEqual(['Welcome to the community!', '*First days*']);
    expect(texts()[1]).toEqual(['Welcome to the community!']);

    // A crash: a worker claims Ben's form step and dies before sending; its claim lapses and another sends it.
    clockMs = T0 + 5 * 3600_000 + 2 * 86_400_000 + 2 * 60_000;
    const claimedDb = env.t.ctx.database.db;
    const held = (
      (await claimedDb.execute(
        sql`update workflow_steps set claimed_until = ${new Date(clockMs + 60_000).toISOString()}::timestamptz
          where workflow_id = ${wf.workflow_id} and status = 'due' and position = 1 and due_at <= ${new Date(clockMs).toISOString()}::timestamptz
          returning id`,
      )) as any
    ).rows;
    expect(held).toHaveLength(1);
    await at(clockMs); // held: nothing yet
    expect(texts()[1]).toEqual(['Welcome to the community!']);
    await at(clockMs + 61_000);
    expect(texts()[1]).toEqual(['Welcome to the community!', '*First days*']);

    // Ada's check-in came three hours after her form, meanwhile.
    expect(texts()[0]).toEqual(['Welcome to the community!', '*First days*', 'How are you settling in?']);

    // Stopping holds the rest: Ben's check-in comes due while stopped and is sent once resumed.
    const benForm = clockMs;
    const pause = await call('PATCH', '/workflows/pauseworkflow', {
      team_id: teamId,
      workflow_id: wf.workflow_id,
      status: false,
    });
    expect(pause.json()).toMatchObject({ message: WORKFLOW_TEXTS.stopped, data: { status: false } });
    await at(benForm + 3 * 3600_000 + 5 * 60_000);
    expect(texts()[1]).toEqual(['Welcome to the community!', '*First days*']);
    const resume = await call('PATCH', '/workflows/pauseworkflow', {
      team_id: teamId,
      workflow_id: wf.workflow_id,
    });
    expect(resume.json()).toMatchObject({ message: WORKFLOW_TEXTS.started, data: { status: true } });
    await at(clockMs + 60_000);
    expect(texts()[1]).toEqual(['Welcome to the community!', '*First days*', 'How are you settling in?']);

    // Down for days: Cleo's form, due two days after her welcome, goes when the product is back, once; her
    // check-in still waits its three hours after it.
    await at(T0 + 10 * 86_400_000);
    await at(T0 + 10 * 86_400_000 + 60_000);
    expect(texts()[2]).toEqual(['Welcome to the community!', '*First days*']);
    await at(T0 + 10 * 86_400_000 + 3 * 3600_000 + 60_000);
    const expected = ['Welcome to the community!', '*First days*', 'How are you settling in?'];
    expect(texts()).toEqual([expected, expected, expected]);
    expect(JSON.stringify(dmsByMember().get(newcomers[0]!))).not.toContain('never see this');

    // The form's button opens this workflow's form instance.
    const formMsg = dmsByMember()
      .get(newcomers[2]!)!
      .find((m) => m.text.startsWith('*First days*'))!;
    expect(JSON.stringify(formMsg.blocks)).toContain('form');

    // Histories equal what Slack got.
    const triggers = (await call('GET', `/workflows/gettriggerinfo/${teamId}/${wf.workflow_id}`)).json().data;
    expect(triggers.rows.map((r: any) => r.member_id).sort()).toEqual([...newcomers].sort());
    expect(triggers.rows.map((r: any) => r.trigger_time)).toEqual(
      [...joins].reverse().map((t) => new Date(t).toISOString()),
    );
    expect(triggers.rows.map((r: any) => r.triggered_for)).toEqual(['Cleo Late', 'Ben Middle', 'Ada Early']);
    const list = (await call('GET', `/workflows/getworkflows/${teamId}`)).json().data;
    const row = list.find((w: any) => w.workflow_id === wf.workflow_id);
    expect(row).toMatchObject({
      triggered: 3,
      status: true,
      type_label: 'Workspace Join',
      sender_label: 'Bot',
    });
    expect(row.tasks.map((t: any) => [t.sent, t.pending])).toEqual([
      [3, 0],
      [3, 0],
      [3, 0],
    ]);
    const per = dmsByMember();
    for (const task of row.tasks) {
      const history = (
        await call('GET', `/workflows/getuserdetail/${teamId}/${wf.workflow_id}/${task.task_id}`)
      ).json().data;
      expect(history.rows).toHaveLength(3);
      for (const r of history.rows) {
        expect(r.status).toBe('sent');
        expect(r.sent_to).toBe(r.triggered_for);
        // The receipt of this row is the one the member's DM carries.
        expect(per.get(r.member_id)!.filter((m) => m.receipt === r.receipt_id)).toHaveLength(1);
        if (task.details.type === 'form') {
          expect(r.form_id).toBe(task.form_id);
          expect(r.form_instance_id).toBeGreaterThan(0);
        }
      }
    }
    // Receipts name the member a step was for, not their id.
    const receipts = (await call('GET', `/receipts/getallreceipts/${teamId}`)).json().data;
    const forCleo = receipts.filter((r: any) => r.description.endsWith('(for @Cleo Late)'));
    expect(forCleo).toHaveLength(3);
    expect(receipts.filter((r: any) => /\(for <?@?U[0-9A-Z]+>?\)/.test(r.description))).toEqual([]);
    // The form task's form is not listed among the workspace's forms.
    const formsList = (await call('GET', `/actions/getforms/${teamId}`)).json().data ?? [];
    expect(formsList.find((f: any) => f.master_form_id === row.tasks[1].form_id)).toBe(undefined);
  }, 120_000);
});

describe('the other triggers, two workers, and steps that cannot be sent', () => {
  const svcNow = () => env.t.ctx.services.workflows;
  const firingsOf = async (id: number) =>
    (
      (await env.t.ctx.database.db.execute(
        sql`select member_id from workflow_triggers where workflow_id = ${id} order by member_id`,
      )) as any
    ).rows.map((r: any) => r.member_id) as (string | null)[];

  it('a channel join fires once per join (a redelivered event adds nothing) and DMs the member', async () => {
    // A public channel and a member who is not in it.
    let watched = '';
    let joiner = '';
    for (const c of env.emu.truth(teamId).channels() as Iterable<any>) {
      if (c.is_private || c.is_im || c.is_archived) continue;
      const outside = members.find((m) => !c.members.includes(m));
      if (outside) [watched, joiner] = [c.id, outside];
    }
    expect(joiner).toBeTruthy();
    const wf = (
      await call('POST', '/workflows/createworkflow', {
        ...joinWorkflow('Channel welcome', [messageTask('Hi channel', 'Glad you joined the channel')]),
        trigger_type: 'channel_join',
        channel: watched,
      })
    ).json().data;
    expect(wf).toMatchObject({ type_label: 'Channel Join', channel: watched });
    expect(wf.trigger_summary).toMatch(/^When a member joins #/);
    await fetch(`${env.emu.url}/_admin/teams/${teamId}/channels/${watched}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: joiner }),
    });
    await settleEvents(env);
    const join = env.emu
      .deliveries()
      .find((d) => d.type === 'member_joined_channel' && JSON.stringify(d.envelope).includes(joiner))!;
    const envelope = join.envelope as { event: object; event_id: string };
    await deliver(envelope.event, envelope.event_id);
    await settleEvents(env);
    // The process's own workers may hold the step (the join woke them): wait until it is no longer due.
    for (const deadline = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 100))) {
      await svcNow().sendDueSteps();
      const [due] = (
        (await env.t.ctx.database.db.execute(
          sql`select count(*)::int as n from workflow_steps where workflow_id = ${wf.workflow_id} and status = 'due'`,
        )) as any
      ).rows;
      if (due.n === 0 || Date.now() > deadline) break;
    }
    await drainDeliveries();
    expect(await firingsOf(wf.workflow_id)).toEqual([joiner]);
    expect(
      (dmsByMember().get(joiner) ?? []).filter((m) => m.text === 'Glad you joined the channel'),
    ).toHaveLength(1);
  });

  it('a time trigger fires once at its time for its tags (late after an outage, still once)', async () => {
    const tag = (await call('POST', '/tags/createtag', { team_id: teamId, name: 'Launch crew' })).json().data;
    const crew = members.slice(0, 3);
    await call('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [{ id: tag.id, name: tag.name }],
      users: crew.map((id) => ({ id })),
    });
    const tz = await env.t.ctx.services.workspaces.timezone(teamId);
    const when = Date.now() + 2 * 86_400_000;
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
        .formatToParts(new Date(when))
        .map((x) => [x.type, x.value]),
    );
    const wf = (
      await call('POST', '/workflows/createworkflow', {
        team_id: teamId,
        workflow_name: 'Launch',
        sender: 'b',
        trigger_type: 'time',
        trigger_at: { date: `${p.day}-${p.month}-${p.year}`, time: `${p.hour}:${p.minute}` },
        tags: [tag.id],
        tasks: [
          messageTask('Launch note', 'The launch is today', null, {
            sendToSelectedUsers: false,
            triggerTags: [tag.id],
          }),
        ],
      })
    ).json().data;
    expect(wf.trigger_summary).toContain('for Tags: Launch crew');
    const svc = make();
    clockMs = when - 60_000;
    await svc.planTriggers();
    expect(await firingsOf(wf.workflow_id)).toEqual([]);
    clockMs = when + 3 * 3600_000; // the product was down at the time
    await Promise.all([svc.planTriggers(), make().planTriggers()]);
    await svc.planTriggers();
    expect(await firingsOf(wf.workflow_id)).toEqual([null]);
    while ((await svc.sendDueSteps()) > 0);
    await drainDeliveries();
    const per = dmsByMember();
    for (const m of crew)
      expect((per.get(m) ?? []).filter((x) => x.text === 'The launch is today')).toHaveLength(1);
    const history = (await call('GET', `/workflows/gettriggerinfo/${teamId}/${wf.workflow_id}`)).json().data;
    expect(history.rows).toEqual([
      expect.objectContaining({ triggered_for: 'Tags: Launch crew', member_id: null }),
    ]);
    const action = (
      await call('GET', `/workflows/getuserdetail/${teamId}/${wf.workflow_id}/${wf.tasks[0].task_id}`)
    ).json().data;
    expect(action.rows).toEqual([expect.objectContaining({ status: 'sent', sent_to: '3 members' })]);
  });

  it('activity and inactivity fire for members who cross the threshold after the workflow starts, once each', async () => {
    const db = env.t.ctx.database.db;
    const base = Date.now();
    const create = async (type: 'activity' | 'inactivity', days: number) =>
      (
        await call('POST', '/workflows/createworkflow', {
          ...joinWorkflow(`${type} ${days}`, [messageTask('Nudge', `${type} nudge`)]),
          trigger_type: type,
          days,
        })
      ).json().data;
    const inactive = await create('inactivity', 5);
    const active = await create('activity', 3);
    expect(inactive.trigger_summary).toBe('When a member has been inactive for 5 days');
    // Members with activity in the imported history, and one with none at all.
    const rows = (
      (await db.execute(
        sql`select member_id from activity_member_daily where team_id = ${teamId} and messages + replies + reactions > 0
          group by member_id order by member_id`,
      )) as any
    ).rows.map((r: any) => r.member_id as string);
    const busy = rows.find((m: string) => members.includes(m))!;
    const quiet = members.find((m) => !rows.includes(m))!;
    const goesQuiet = rows.find((m: string) => members.includes(m) && m !== busy)!;
    expect(busy && quiet && goesQuiet).toBeTruthy();
    const clock = base + 12 * 3600_000;
    const setLast = (m: string, at: number) =>
      db.execute(sql`update slack_members set last_active_at = ${new Date(at).toISOString()}::timestamptz
        where team_id = ${teamId} and member_id = ${m}`);
    // Quiet five days as of an hour before the clock (everyone else crosses later: their last activity is recent).
    await setLast(goesQuiet, clock - 5 * 86_400_000 - 3600_000);
    // Active now: the quiet member (no activity in the 3 days before) fires; the busy one (active lately) not.
    await setLast(quiet, clock - 60_000);
    await setLast(busy, clock - 60_000);
    clockMs = clock;
    const svc = make();
    await svc.planTriggers();
    await make().planTriggers(); // looked at already: nothing more
    expect(await firingsOf(inactive.workflow_id)).toEqual([goesQuiet]);
    expect(await firingsOf(active.workflow_id)).toEqual([quiet]);
    // A later look (after the scan interval) finds the same crossings again and adds nothing.
    clockMs = clock + 10 * 60_000;
    await svc.planTriggers();
    expect(await firingsOf(inactive.workflow_id)).toEqual([goesQuiet]);
    expect(await firingsOf(active.workflow_id)).toEqual([quiet]);
    for (const wf of [inactive, active]) await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
  });

  it('Member Level fires for members who become Slipping after it starts, once each; never for a first level', async () => {
    const db = env.t.ctx.database.db;
    const tz = ((await db.execute(sql`select timezone from workspaces where team_id = ${teamId}`)) as any)
      .rows[0].timezone as string;
    const today = localDay(new Date(), tz);
    // Four active days in the last two weeks make members Regular today (the history holds two days), unless
    // they joined lately (Newcomers): three of the Regulars are watched.
    const some = members.slice(0, 12);
    for (const m of some)
      for (const back of [1, 3, 5, 7])
        await db.execute(sql`insert into activity_member_daily (team_id, day, member_id, messages, replies, reactions)
          values (${teamId}, ${addDays(today, -back)}::date, ${m}, 2, 0, 0) on conflict do nothing`);
    await refreshLevels(db, new Map([[teamId, tz]]), new Date(), true);
    const regulars = (
      (await db.execute(sql`select member_id from member_levels where team_id = ${teamId}
        and member_id = any(${sql.param(some)}::text[]) and level = 'regular' order by member_id`)) as any
    ).rows.map((r: any) => r.member_id as string);
    expect(regulars.length).toBeGreaterThanOrEqual(3);
    const [a, b, fresh] = regulars as [string, string, string];
    // A member with no level yet (as on the day a workspace connects): their first level fires nothing.
    await db.execute(sql`delete from member_levels where team_id = ${teamId} and member_id = ${fresh}`);
    clockMs = Date.now();
    const bad = await call('POST', '/workflows/createworkflow', {
      ...joinWorkflow('Level', [messageTask('We miss you', 'slipping nudge')]),
      trigger_type: 'level_change',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(WORKFLOW_TEXTS.chooseLevel);
    const newcomer = await call('POST', '/workflows/createworkflow', {
      ...joinWorkflow('Level', [messageTask('We miss you', 'slipping nudge')]),
      trigger_type: 'level_change',
      level: 'newcomer',
    });
    expect(newcomer.statusCode).toBe(400);
    const wf = (
      await call('POST', '/workflows/createworkflow', {
        ...joinWorkflow('Level', [messageTask('We miss you', 'slipping nudge')]),
        trigger_type: 'level_change',
        level: 'slipping',
      })
    ).json().data;
    expect(wf.trigger_summary).toBe('When a member becomes Slipping');
    expect(wf.level).toBe('slipping');
    // Their activity moves sixteen days back, as if they had been quiet since: the three slip today (the fresh one
    // from no level). Today's levels, not a later day's: the app's own levels job (every minute, on the real
    // clock) recomputes a workspace whose levels are not today's, and undid a later day's beside the test.
    // (All of it, the imported history's too: the ranges before and after do not meet, so no day is taken twice.)
    await db.execute(sql`update activity_member_daily set day = day - 16 where team_id = ${teamId}
      and member_id = any(${sql.param(some)}::text[])`);
    const t0 = Date.now();
    // The trigger looks just before the recompute: nothing yet.
    clockMs = t0;
    await make().planTriggers();
    expect(await firingsOf(wf.workflow_id)).toEqual([]);
    await refreshLevels(db, new Map([[teamId, tz]]), new Date(t0 + 1_000), true);
    // Ten seconds after that look it does not look again (every 30 s), nor when told that members of another
    // workspace changed level; told that members of its own did (the levels job's wake), it looks at once.
    clockMs = t0 + 10_000;
    await make().planTriggers();
    await make().planTriggers({ levelTeams: [otherTeam] });
    expect(await firingsOf(wf.workflow_id)).toEqual([]);
    await make().planTriggers({ levelTeams: [teamId] });
    expect(await firingsOf(wf.workflow_id)).toEqual(regulars.filter((m: string) => m !== fresh));
    // Told again, and at the next minute's look: each of them once.
    await make().planTriggers({ levelTeams: [teamId] });
    clockMs = t0 + 60_000;
    await make().planTriggers();
    expect(await firingsOf(wf.workflow_id)).toEqual(regulars.filter((m: string) => m !== fresh));
    while ((await make().sendDueSteps(10)) > 0);
    await drainDeliveries();
    const per = dmsByMember();
    for (const m of [a, b])
      expect((per.get(m) ?? []).filter((x) => x.text.includes('slipping nudge'))).toHaveLength(1);
    expect((per.get(fresh) ?? []).filter((x) => x.text.includes('slipping nudge'))).toHaveLength(0);
    // A later look and a recompute of the same day add nothing.
    clockMs += 10 * 60_000;
    await refreshLevels(db, new Map([[teamId, tz]]), new Date(clockMs), true);
    await make().planTriggers();
    expect(await firingsOf(wf.workflow_id)).toEqual(regulars.filter((m: string) => m !== fresh));
    await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
    await db.execute(sql`delete from activity_member_daily where team_id = ${teamId} and member_id = any(${sql.param(some)}::text[])
      and messages = 2 and replies = 0 and reactions = 0`);
    // The history's days back where they were.
    await db.execute(sql`update activity_member_daily set day = day + 16 where team_id = ${teamId}
      and member_id = any(${sql.param(some)}::text[])`);
    await refreshLevels(db, new Map([[teamId, tz]]), new Date(), true);
  });

  it('two workers at once send every step once', async () => {
    const wf = (
      await call(
        'POST',
        '/workflows/createworkflow',
        joinWorkflow('Busy', [messageTask('Busy hello', 'Hello from two workers')]),
      )
    ).json().data;
    const db = env.t.ctx.database.db;
    const at = '2028-01-01T00:00:00.000Z';
    await db.transaction(async (tx) => {
      for (const m of members) await env.t.ctx.services.workflows.onMemberJoined(tx as any, teamId, m, at);
    });
    clockMs = Date.parse(at) + 60_000;
    const [a, b] = [make(), make()];
    const loop = async (s: WorkflowsService) => {
      while ((await s.sendDueSteps(3)) > 0);
    };
    await Promise.all([loop(a), loop(b), loop(a)]);
    await drainDeliveries();
    const per = dmsByMember();
    for (const m of members)
      expect((per.get(m) ?? []).filter((x) => x.text === 'Hello from two workers')).toHaveLength(1);
    const history = (
      await call('GET', `/workflows/getuserdetail/${teamId}/${wf.workflow_id}/${wf.tasks[0].task_id}`)
    ).json().data;
    expect(history.rows).toHaveLength(members.length);
    expect(new Set(history.rows.map((r: any) => r.receipt_id)).size).toBe(members.length);
    await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
  });

  it('a step that cannot reach anyone is recorded as failed, and the chain goes on', async () => {
    const target = members[members.length - 1]!;
    const wf = (
      await call(
        'POST',
        '/workflows/createworkflow',
        joinWorkflow('Fragile', [
          messageTask('To a leaver', 'Only for the target', null, {
            sendToSelectedUsers: false,
            dms: { members: [target] },
          }),
          messageTask('After', 'The chain goes on', { delay_unit: 'minutes', delay_in_secs: 600 }),
        ]),
      )
    ).json().data;
    await fetch(`${env.emu.url}/_admin/teams/${teamId}/members/${target}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deleted: true }),
    });
    await settleEvents(env);
    const joiner = members[0]!;
    const at = '2028-02-01T00:00:00.000Z';
    await env.t.ctx.database.db.transaction((tx) =>
      env.t.ctx.services.workflows.onMemberJoined(tx as any, teamId, joiner, at),
    );
    const svc = make();
    clockMs = Date.parse(at) + 60_000;
    while ((await svc.sendDueSteps()) > 0);
    clockMs += 11 * 60_000;
    while ((await svc.sendDueSteps()) > 0);
    await drainDeliveries();
    const first = (
      await call('GET', `/workflows/getuserdetail/${teamId}/${wf.workflow_id}/${wf.tasks[0].task_id}`)
    ).json().data.rows;
    expect(first).toEqual([expect.objectContaining({ status: 'failed', receipt_id: null })]);
    expect(first[0].error).toMatch(/nobody|no member|reach/i);
    const second = (
      await call('GET', `/workflows/getuserdetail/${teamId}/${wf.workflow_id}/${wf.tasks[1].task_id}`)
    ).json().data.rows;
    expect(second).toEqual([expect.objectContaining({ status: 'sent' })]);
    expect(second[0].sent_to).toBe(second[0].triggered_for);
    expect((dmsByMember().get(joiner) ?? []).filter((x) => x.text === 'The chain goes on')).toHaveLength(1);
  });
});

describe('a workflow cannot flood the workspace', () => {
  const firingsOf = async (id: number) =>
    (
      (await env.t.ctx.database.db.execute(
        sql`select member_id from workflow_triggers where workflow_id = ${id} order by member_id`,
      )) as any
    ).rows.map((r: any) => r.member_id) as (string | null)[];
  const setLast = (m: string, at: number) =>
    env.t.ctx.database.db
      .execute(sql`update slack_members set last_active_at = ${new Date(at).toISOString()}::timestamptz
      where team_id = ${teamId} and member_id = ${m}`);

  it('Member Activity whose step DMs the whole workspace: 10 members active, each member gets one DM', async () => {
    const text = `Big news for everyone ${Date.now()}`;
    const wf = (
      await call('POST', '/workflows/createworkflow', {
        ...joinWorkflow('Activity broadcast', [
          messageTask('To all', text, null, { sendToSelectedUsers: false, sendToWorkspace: true }),
        ]),
        trigger_type: 'activity',
        days: 0,
      })
    ).json().data;
    const clock = Date.now() + 12 * 3600_000;
    const active = members.slice(0, 10);
    for (const m of active) await setLast(m, clock - 60_000);
    clockMs = clock;
    const svc = make();
    await svc.planTriggers();
    expect(await firingsOf(wf.workflow_id)).toEqual([...active].sort());
    while ((await svc.sendDueSteps(3)) > 0);
    await drainDeliveries();
    const per = dmsByMember();
    // Every member who can get a message now (an earlier test deactivated one), once.
    const reachable = (
      (await env.t.ctx.database.db.execute(
        sql`select member_id from slack_members where team_id = ${teamId} and not deleted and not is_bot`,
      )) as any
    ).rows.map((r: any) => r.member_id as string);
    for (const m of members)
      expect((per.get(m) ?? []).filter((x) => x.text === text)).toHaveLength(reachable.includes(m) ? 1 : 0);
    // Every firing's step is recorded as sent, with the one receipt.
    const history = (
      await call('GET', `/workflows/getuserdetail/${teamId}/${wf.workflow_id}/${wf.tasks[0].task_id}`)
    ).json().data;
    expect(history.rows).toHaveLength(10);
    expect(new Set(history.rows.map((r: any) => `${r.status}:${r.receipt_id}`)).size).toBe(1);
    expect(history.rows[0].status).toBe('sent');
    await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
  });

  it('a step reaches a member at most once a day, however many firings ask (WORKFLOW_MEMBER_COOLDOWN_HOURS)', async () => {
    const text = `Welcome back ${Date.now()}`;
    const wf = (
      await call('POST', '/workflows/createworkflow', joinWorkflow('Rejoin', [messageTask('Hi', text)]))
    ).json().data;
    const member = members[1]!;
    const svc = make();
    const join = async (at: string) => {
      await env.t.ctx.database.db.transaction((tx) =>
        env.t.ctx.services.workflows.onMemberJoined(tx as any, teamId, member, at),
      );
      clockMs = Date.parse(at) + 60_000;
      while ((await svc.sendDueSteps()) > 0);
    };
    // Joins three times within a day (left and came back): one DM; a day later, another.
    await join('2029-03-01T08:00:00.000Z');
    await join('2029-03-01T09:00:00.000Z');
    await join('2029-03-01T20:00:00.000Z');
    await join('2029-03-02T09:30:00.000Z');
    await drainDeliveries();
    expect((dmsByMember().get(member) ?? []).filter((x) => x.text === text)).toHaveLength(2);
    const rows = (
      await call('GET', `/workflows/getuserdetail/${teamId}/${wf.workflow_id}/${wf.tasks[0].task_id}`)
    ).json().data.rows;
    expect(rows.map((r: any) => r.status).sort()).toEqual(['failed', 'failed', 'sent', 'sent']);
    expect(rows.find((r: any) => r.status === 'failed').error).toMatch(
      /got it from this workflow in the last 24 hours/,
    );
    await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
  });

  it("Flywheel's own messages are nobody's activity: they never fire an activity workflow", async () => {
    const wf = (
      await call('POST', '/workflows/createworkflow', {
        ...joinWorkflow('Echo', [messageTask('Echo', 'You were active')]),
        trigger_type: 'activity',
        days: 0,
      })
    ).json().data;
    const [sender, person] = [members[2]!, members[3]!];
    for (const m of [sender, person]) await setLast(m, Date.now() - 40 * 86_400_000);
    const ts = (Date.now() / 1000).toFixed(6);
    // A post Flywheel made as an admin (its metadata), and a member's own message.
    await deliver(
      {
        type: 'message',
        channel,
        channel_type: 'channel',
        user: sender,
        text: 'Posted by a workflow as an admin',
        ts,
        metadata: { event_type: DELIVERY_EVENT_TYPE, event_payload: { receipt: 1, recipient: 1 } },
      },
      `Ev-flywheel-${ts}`,
    );
    await deliver(
      { type: 'message', channel, channel_type: 'channel', user: person, text: 'My own words', ts: `${ts}1` },
      `Ev-person-${ts}`,
    );
    await settleEvents(env);
    // The process's own tick may be looking at this trigger now (this look then skips it) and may have read the
    // members before the events were stored: look until the member's own message has fired.
    let fired: (string | null)[] = [];
    for (const deadline = Date.now() + 15_000; !fired.includes(person) && Date.now() < deadline;) {
      clockMs = Date.now() + 60_000;
      await make().planTriggers();
      // (Members an earlier test made active fire too: only these two are looked at.)
      fired = await firingsOf(wf.workflow_id);
      if (!fired.includes(person)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(fired).toContain(person);
    expect(fired).not.toContain(sender);
    await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
  });
});

describe('every step written with a delay wakes a sender at its time (not the next minute tick)', () => {
  const minutes = (n: number) => ({ delay_unit: 'minutes', delay_in_secs: n * 60 });
  const db = () => env.t.ctx.database.db;
  const create = async (body: object) => {
    const res = await call('POST', '/workflows/createworkflow', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  /** A whole second of the test's clock, hours ahead of the real one (the process's own tick never gets there). */
  const second = (ms: number) => Math.ceil(ms / 1000) * 1000;

  it('a time trigger with a Delay right after it: a wake-up at the trigger time plus the delay, then one per step', async () => {
    const tag = (await call('POST', '/tags/createtag', { team_id: teamId, name: 'Wake crew' })).json().data;
    await call('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [{ id: tag.id, name: tag.name }],
      users: [{ id: members[4] }],
    });
    const tz = await env.t.ctx.services.workspaces.timezone(teamId);
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
        .formatToParts(new Date(Date.now() + 3 * 86_400_000))
        .map((x) => [x.type, x.value]),
    );
    const forCrew = { sendToSelectedUsers: false, triggerTags: [tag.id] };
    const wf = await create({
      team_id: teamId,
      workflow_name: 'Delayed launch',
      sender: 'b',
      trigger_type: 'time',
      trigger_at: { date: `${p.day}-${p.month}-${p.year}`, time: `${p.hour}:${p.minute}` },
      tags: [tag.id],
      tasks: [
        messageTask('Soon', 'A minute after the launch', minutes(1), forCrew),
        messageTask('Later', 'Five minutes after that', minutes(5), forCrew),
      ],
    });
    const [row] = (
      (await db().execute(
        sql`select (extract(epoch from trigger_at) * 1000)::float8 as t from workflows where id = ${wf.workflow_id}`,
      )) as any
    ).rows;
    const triggerAt = Number(row.t);
    const svc = make();
    wakes.length = 0;
    // The tick that fires it runs 10 s after its time: the first step is due a minute after the trigger time.
    clockMs = triggerAt + 10_000;
    await svc.planTriggers();
    expect(wakes).toEqual([triggerAt + 60_000]);
    expect(await svc.sendDueSteps()).toBe(0);
    clockMs = triggerAt + 60_000;
    expect(await svc.sendDueSteps()).toBe(1);
    expect(wakes).toEqual([triggerAt + 60_000, triggerAt + 6 * 60_000]);
    await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
  });

  it('an activity trigger with a Delay right after it: one wake-up at the firing plus the delay', async () => {
    const member = members[6]!;
    const wf = await create({
      ...joinWorkflow('Delayed hello again', [
        messageTask('Hi again', 'A minute after you came back', minutes(1)),
      ]),
      trigger_type: 'activity',
      days: 0,
    });
    // Looked at hours ahead of the real clock (the process's own tick leaves it alone), by the test's clock only.
    const clock = second(Date.now() + 14 * 3600_000);
    await db().execute(
      sql`update workflows set scanned_at = ${new Date(clock - 5 * 60_000).toISOString()}::timestamptz
        where id = ${wf.workflow_id}`,
    );
    await db()
      .execute(sql`update slack_members set last_active_at = ${new Date(clock - 60_000).toISOString()}::timestamptz
      where team_id = ${teamId} and member_id = ${member}`);
    wakes.length = 0;
    clockMs = clock;
    await make().planTriggers();
    const fired = (
      (await db().execute(
        sql`select member_id from workflow_triggers where workflow_id = ${wf.workflow_id}`,
      )) as any
    ).rows.map((r: any) => r.member_id);
    expect(fired).toContain(member);
    // However many members fired at that look, their first steps share one time: one wake-up.
    expect(wakes).toEqual([clock + 60_000]);
    await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
  });

  it('a join: the first steps that wait are answered to the listener; each distinct next step wakes a sender', async () => {
    // Only this test's join workflows fire.
    await db().execute(
      sql`update workflows set active = false where team_id = ${teamId} and trigger_type = 'workspace_join'`,
    );
    const a = await create(
      joinWorkflow('Wait then chat', [
        messageTask('A1', 'A minute after joining', minutes(1)),
        messageTask('A2', 'Ten minutes after that', minutes(10)),
      ]),
    );
    const b = await create(
      joinWorkflow('Wait then form', [
        messageTask('B1', 'Also a minute after joining', minutes(1)),
        formTask('B2', { delay_unit: 'days', delay_in_secs: 86_400 }),
      ]),
    );
    const c = await create(joinWorkflow('At once', [messageTask('C1', 'Right at the join')]));
    const member = members[5]!;
    const at = '2030-04-01T08:00:00.000Z';
    const t = Date.parse(at);
    const svc = make();
    clockMs = t + 500; // the event comes in half a second after the join
    const fired = await db().transaction((tx) => svc.onMemberJoined(tx as any, teamId, member, at));
    // Two first steps wait a minute (one wake-up); the third is due at once (the listener wakes a sender now).
    expect(fired).toEqual({ due: 1, later: [new Date(t + 60_000)] });
    wakes.length = 0;
    clockMs = t + 60_000;
    while ((await svc.sendDueSteps()) > 0);
    // One batch finished A1 and B1: their next steps are due ten minutes and a day later, each wakes a sender
    // (not only the earlier one).
    expect(wakes).toEqual([t + 11 * 60_000, t + 60_000 + 86_400_000]);
    for (const wf of [a, b, c]) await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`);
  });
});

describe('never wedged twice: a trigger whose planning began twice and never finished is passed over', () => {
  const db = () => env.t.ctx.database.db;
  let logged = '';
  const watched = () =>
    workflowsService({
      db: env.t.ctx.database.db,
      audience: env.t.ctx.services.audience,
      delivery: env.t.ctx.services.delivery,
      timezoneOf: async () => 'Europe/London',
      logger: createLogger('info', { write: (line: string) => void (logged += line) }),
      now: () => clockMs,
    });
  const skippedLines = () =>
    logged
      .split('\n')
      .filter((l) => l.includes('planning never finished twice'))
      .map((l) => JSON.parse(l));
  const firingsOf = async (id: number) =>
    ((await db().execute(sql`select member_id from workflow_triggers where workflow_id = ${id}`)) as any).rows
      .length as number;
  const ledger = async () =>
    ((await db().execute(sql`select kind, key, attempts from due_attempts order by kind, key`)) as any).rows;

  it('time triggers: one begun once is planned (a second attempt), one begun twice is marked fired unfired', async () => {
    const tag = (await call('POST', '/tags/createtag', { team_id: teamId, name: 'Wedge crew' })).json().data;
    await call('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [{ id: tag.id, name: tag.name }],
      users: [{ id: members[7] }],
    });
    const ahead = new Date(Date.now() + 2 * 86_400_000);
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: await env.t.ctx.services.workspaces.timezone(teamId),
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .formatToParts(ahead)
        .map((x) => [x.type, x.value]),
    );
    const createAt = async (name: string) => {
      const res = await call('POST', '/workflows/createworkflow', {
        team_id: teamId,
        workflow_name: name,
        sender: 'b',
        trigger_type: 'time',
        trigger_at: { date: `${p.day}-${p.month}-${p.year}`, time: `${p.hour}:${p.minute}` },
        tags: [tag.id],
        tasks: [
          messageTask(name, `${name} text`, null, { sendToSelectedUsers: false, triggerTags: [tag.id] }),
        ],
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.workflow_id as number;
    };
    const [once, twice] = [await createAt('Begun once'), await createAt('Begun twice')];
    const [row] = (
      (await db().execute(
        sql`select (extract(epoch from trigger_at) * 1000)::float8 as t from workflows where id = ${once}`,
      )) as any
    ).rows;
    const triggerAt = Number(row.t);
    const key = (id: number) => `${id}@${new Date(triggerAt).toISOString()}`;
    // As a process killed in the middle of planning them leaves them.
    await db().execute(sql`insert into due_attempts (kind, key, attempts)
      values ('workflow-time', ${key(once)}, 1), ('workflow-time', ${key(twice)}, 2)`);
    logged = '';
    clockMs = triggerAt + 30_000;
    await watched().planTriggers();
    expect(await firingsOf(once)).toBe(1);
    expect(await firingsOf(twice)).toBe(0);
    expect(skippedLines()).toEqual([
      expect.objectContaining({ kind: 'workflow-time', id: twice, attempts: 2, level: 50 }),
    ]);
    // Fired once or not at all: a later look leaves both alone, and the ledger is empty again.
    await watched().planTriggers();
    expect([await firingsOf(once), await firingsOf(twice)]).toEqual([1, 0]);
    const fired = (
      (await db().execute(
        sql`select count(*)::int as n from workflows where id in (${once}, ${twice}) and fired_at is not null`,
      )) as any
    ).rows[0].n;
    expect(fired).toBe(2);
    expect(await ledger()).toEqual([]);
    for (const id of [once, twice]) await call('DELETE', `/workflows/${teamId}/${id}`);
  });

  it('activity: a look begun twice is passed over (looks again from now); a look begun once goes ahead', async () => {
    const create = async (name: string) => {
      const res = await call('POST', '/workflows/createworkflow', {
        ...joinWorkflow(name, [messageTask(name, `${name} text`)]),
        trigger_type: 'activity',
        days: 0,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.workflow_id as number;
    };
    const [once, twice] = [await create('Looked once'), await create('Looked twice')];
    // Hours ahead of the real clock (the process's own tick leaves them alone), by the test's clock only.
    const clock = Math.ceil((Date.now() + 20 * 3600_000) / 1000) * 1000;
    const last = new Date(clock - 5 * 60_000).toISOString();
    await db().execute(
      sql`update workflows set scanned_at = ${last}::timestamptz where id in (${once}, ${twice})`,
    );
    await db()
      .execute(sql`update slack_members set last_active_at = ${new Date(clock - 60_000).toISOString()}::timestamptz
      where team_id = ${teamId} and member_id = ${members[8]!}`);
    await db().execute(sql`insert into due_attempts (kind, key, attempts)
      values ('workflow-scan', ${`${once}@${last}`}, 1), ('workflow-scan', ${`${twice}@${last}`}, 2)`);
    logged = '';
    clockMs = clock;
    await watched().planTriggers();
    expect(await firingsOf(once)).toBeGreaterThan(0);
    expect(await firingsOf(twice)).toBe(0);
    expect(skippedLines()).toEqual([
      expect.objectContaining({ kind: 'workflow-scan', id: twice, attempts: 2, level: 50 }),
    ]);
    const scanned = (
      (await db().execute(
        sql`select (extract(epoch from scanned_at) * 1000)::float8 as t from workflows where id = ${twice}`,
      )) as any
    ).rows[0].t;
    expect(Number(scanned)).toBe(clock);
    expect(await ledger()).toEqual([]);
    for (const id of [once, twice]) await call('DELETE', `/workflows/${teamId}/${id}`);
  });
});
