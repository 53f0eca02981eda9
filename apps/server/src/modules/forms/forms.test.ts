import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  DEFAULT_ACK_MESSAGE,
  FORM_MODAL_CALLBACK,
  FORM_OPEN_ACTION,
  FORM_TEXTS,
} from '@flywheel/shared/forms';
import { createLogger } from '../../lib/logger.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  deliverInteractivity,
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
  drainDeliveries as drainAll,
} from '../../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from '../delivery/engine.ts';
import { readAnswers } from './modal.ts';
import { formsService, type FormsService } from './service.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let members: string[];
let channel: string;
let clockMs = Date.parse('2027-03-19T12:00:00Z');
/** Two workers on a clock the test moves (the process's own tick runs on the real one). */
let workerA: FormsService;
let workerB: FormsService;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 31, members: 20, channels: 3, days: 2 },
        { seed: 32, members: 8, channels: 2, days: 2 },
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
  const worker = () =>
    formsService({
      db: ctx.database.db,
      audience: ctx.services.audience,
      delivery: ctx.services.delivery,
      workspaces: ctx.services.workspaces,
      slack: ctx.slack,
      timezoneOf: async () => 'Europe/London',
      graceMs: 60 * 60_000,
      logger: createLogger('silent'),
      now: () => clockMs,
    });
  workerA = worker();
  workerB = worker();
}, 120_000);
afterAll(() => env.close());

const call = (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object, token = user.token) =>
  env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), payload });

const QUESTIONS = [
  { question: 'What did you ship?', type: 'descriptive' },
  { question: 'How was the week?', type: 'mcq', options: ['Great', 'Fine', 'Rough'] },
  { question: 'One word for it', type: 'shortDesc', optional: true },
];

const formBody = (over: object = {}) => ({
  team_id: teamId,
  form_title: 'Weekly check-in',
  form_description: 'Tell us how it went',
  sender: 'b',
  dms: { members: [members[0]] },
  instant: true,
  questions: QUESTIONS,
  ...over,
});

const drainDeliveries = () => drainAll(env, teamId);

/** The DM channel between the bot and a member, and the messages in it. */
function dmOf(member: string) {
  const im = (env.emu.truth(teamId).channels() as any[]).find((c) => c.is_im && c.members?.includes(member));
  const messages = [...(env.emu.truth(teamId).messages() as Iterable<any>)].filter(
    (m) => im && m.channel === im.id,
  );
  return { channel: im?.id as string, messages };
}

const instancesOf = async (formId: number) =>
  (
    (await env.t.ctx.database.db.execute(
      sql`select run_key, status, receipt_id::int as receipt_id from form_instances where form_id = ${formId} order by id`,
    )) as any
  ).rows as { run_key: string; status: string; receipt_id: number | null }[];

describe('form validation', () => {
  const cases: [string, object, string][] = [
    ['an empty description', { form_description: '  ' }, "Form Description can't be empty"],
    [
      'a description over 125 characters',
      { form_description: 'x'.repeat(126) },
      'Form Description can be at most 125 characters',
    ],
    [
      'a name over 24 characters',
      { form_title: 'x'.repeat(25) },
      'Name of the Form can be at most 24 characters',
    ],
    [
      'an empty question title',
      { questions: [{ question: ' ', type: 'descriptive' }] },
      "Ques title can't be empty.",
    ],
    [
      'a question title over 48 characters',
      { questions: [{ question: 'q'.repeat(49), type: 'shortDesc' }] },
      'Ques title can be at most 48 characters',
    ],
    [
      'an empty option value',
      { questions: [{ question: 'Pick', type: 'mcq', options: ['A', ''] }] },
      "Option Value can't be empty",
    ],
    [
      'an MCQ without options',
      { questions: [{ question: 'Pick', type: 'mcq', options: [] }] },
      "Option Value can't be empty",
    ],
    [
      'an option over 48 characters',
      { questions: [{ question: 'Pick', type: 'mcq', options: ['o'.repeat(49)] }] },
      'Option Value can be at most 48 characters',
    ],
    [
      'six options',
      { questions: [{ question: 'Pick', type: 'mcq', options: ['1', '2', '3', '4', '5', '6'] }] },
      'Max 5 options are allowed',
    ],
    ['no target', { dms: {} }, 'Select at least one member and/or channel and/or tag'],
    ['no questions', { questions: [] }, 'Add at least one question'],
    [
      'a weekly form without days',
      { instant: false, recurring: true, frequency: 'Weekly', time: '09:00' },
      'No field Can be empty',
    ],
    [
      'a scheduled one-time form in the past',
      { instant: false, post_at: { date: '01/01/2020', time: '09:00' } },
      "Scheduled time can't be less than current time.",
    ],
    [
      'a scheduled one-time form on a date that does not exist',
      { instant: false, post_at: { date: '30/02/2030', time: '09:00' } },
      'Invalid date and time',
    ],
  ];
  it.each(cases)('refuses %s with its text', async (_name, over, text) => {
    const res = await call('POST', '/actions/createform', formBody(over));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(text);
  });

  it('sending needs a member, channel or tag; another workspace is 403, an unknown form 404', async () => {
    const created = await call(
      'POST',
      '/actions/createform',
      formBody({ instant: false, recurring: true, frequency: 'Everyday', time: '09:00' }),
    );
    expect(created.statusCode).toBe(201);
    const id = created.json().data.master_form_id;
    const none = await call('POST', '/actions/executeform', {
      team_id: teamId,
      master_form_id: id,
      send_ids: {},
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Select at least one member or channel or tag');
    expect(
      (
        await call('POST', '/actions/executeform', {
          team_id: otherTeam,
          master_form_id: id,
          send_ids: { members: [members[0]] },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', '/actions/executeform', {
          team_id: teamId,
          master_form_id: 999999,
          send_ids: { members: [members[0]] },
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('GET', `/actions/getforms/${otherTeam}`)).statusCode).toBe(403);
    expect(
      (await call('GET', `/actions/getallforminstances/${teamId}/${id}`, undefined, stranger.token))
        .statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/actions/deleteform/${otherTeam}/${id}`)).statusCode).toBe(403);
    // The stranger's own workspace does not hold this form.
    expect(
      (await call('DELETE', `/actions/deleteform/${otherTeam}/${id}`, undefined, stranger.token)).statusCode,
    ).toBe(404);
    const unknownMember = await call('POST', '/actions/executeform', {
      team_id: teamId,
      master_form_id: id,
      send_ids: { members: ['UNOBODY1'] },
    });
    expect(unknownMember.statusCode).toBe(400);
    // The row shows the recurrence and the default acknowledgement.
    expect(created.json().data).toMatchObject({
      recurring: true,
      schedule: 'Every Day at 09:00',
      cron_string: '0 9 * * *',
      ackMessage: DEFAULT_ACK_MESSAGE,
      sender: 'b',
    });
    expect((await call('DELETE', `/actions/deleteform/${teamId}/${id}`)).statusCode).toBe(200);
  });
});

describe('the form list under both paths', () => {
  it('GET /actions/getforms/{teamId}/{second} answers as /actions/getforms/{teamId}; tenancy and search hold', async () => {
    const created = await call('POST', '/actions/createform', formBody({ form_title: 'Two segments' }));
    expect(created.statusCode, created.body).toBe(201);
    const one = await call('GET', `/actions/getforms/${teamId}`);
    for (const second of ['1', user.userid, 'anything']) {
      const two = await call('GET', `/actions/getforms/${teamId}/${second}`);
      expect([second, two.statusCode]).toEqual([second, 200]);
      expect(two.json().data.map((f: any) => f.master_form_id)).toEqual(
        one.json().data.map((f: any) => f.master_form_id),
      );
    }
    const searched = await call('GET', `/actions/getforms/${teamId}/1?search=Two%20segments`);
    expect(searched.json().data.map((f: any) => f.form_title)).toEqual(['Two segments']);
    expect((await call('GET', `/actions/getforms/${otherTeam}/1`)).statusCode).toBe(403);
    expect((await call('GET', `/actions/getforms/${teamId}/a%00b`)).statusCode).toBe(400);
    await call('DELETE', `/actions/deleteform/${teamId}/${created.json().data.master_form_id}`);
  });
});

describe('a form sent to a tag, answered in Slack', () => {
  it('sends a message with a button to each tagged member; the modal validates, stores, acknowledges; CSV and receipts', async () => {
    const tag = await call('POST', '/tags/createtag', { team_id: teamId, name: 'form-crew' });
    expect(tag.statusCode).toBe(201);
    const tagId = tag.json().data.id;
    const crew = members.slice(1, 4);
    expect(
      (
        await call('POST', '/tags/addtagtousers', {
          team_id: teamId,
          tags: [{ id: tagId, name: 'form-crew' }],
          users: crew.map((id) => ({ id })),
        })
      ).statusCode,
    ).toBe(200);

    const created = await call(
      'POST',
      '/actions/createform',
      formBody({ dms: { tags: [tagId] }, ackMessage: 'Thanks <!channel> & see you' }),
    );
    expect(created.statusCode).toBe(201);
    const form = created.json().data;
    const instances = (
      await call('GET', `/actions/getallforminstances/${teamId}/${form.master_form_id}`)
    ).json().data;
    expect(instances).toHaveLength(1);
    expect(instances[0]).toMatchObject({ status: 'sent', recipients: 3, responses: 0 });
    const instance = instances[0];
    await drainDeliveries();

    // Each tagged member got one form message with the button.
    const [member, second] = crew as [string, string];
    for (const m of crew) {
      const withButton = dmOf(m).messages.filter((x) =>
        JSON.stringify(x.blocks ?? []).includes(FORM_OPEN_ACTION),
      );
      expect(withButton).toHaveLength(1);
      expect(withButton[0].metadata.event_type).toBe(DELIVERY_EVENT_TYPE);
    }
    const dm = dmOf(member);
    const formMsg = dm.messages.find((x) => JSON.stringify(x.blocks ?? []).includes(FORM_OPEN_ACTION));
    expect(formMsg.text).toBe('*Weekly check-in*\nTell us how it went');

    // The member presses the button: Slack posts block_actions, the app opens the modal with views.open.
    const click = await env.emu.interactivity.clickButton({
      teamId,
      userId: member,
      channel: dm.channel,
      message: env.emu.team(teamId).messages.find(dm.channel, formMsg.ts) as never,
      actionId: FORM_OPEN_ACTION,
    });
    expect(click.status).toBe(200);
    const view = env.emu.interactivity.surfaces(member).view as any;
    expect(view).toMatchObject({ callback_id: 'flywheel_form', title: { text: 'Weekly check-in' } });
    const inputs = view.blocks.filter((b: any) => b.type === 'input');
    expect(inputs.map((b: any) => [b.block_id, b.element.type, b.optional])).toEqual([
      ['q0', 'plain_text_input', false],
      ['q1', 'static_select', false],
      ['q2', 'plain_text_input', true],
    ]);
    expect(inputs[0].element.multiline).toBe(true);
    expect(inputs[1].element.options.map((o: any) => o.text.text)).toEqual(['Great', 'Fine', 'Rough']);

    // Invalid: a blank required answer and an option that is not the question's -> errors in the modal.
    const bad = await env.emu.interactivity.submitView(member, view.id, {
      q0: { answer: { type: 'plain_text_input', value: '   ' } },
      q1: { answer: { type: 'static_select', selected_option: { value: '7' } } },
      q2: { answer: { type: 'plain_text_input', value: null } },
    });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual({
      response_action: 'errors',
      errors: { q0: FORM_TEXTS.answerRequired, q1: FORM_TEXTS.chooseOption },
    });
    expect(env.emu.interactivity.surfaces(member).view).not.toBeNull();
    const tooLong = await env.emu.interactivity.submitView(member, view.id, {
      q0: { answer: { type: 'plain_text_input', value: 'ok' } },
      q1: { answer: { type: 'static_select', selected_option: { value: '0' } } },
      q2: { answer: { type: 'plain_text_input', value: 'w'.repeat(151) } },
    });
    // Slack's client keeps a text over max_length in the modal; the app checks it again all the same.
    expect(tooLong).toMatchObject({
      local: true,
      body: { errors: { q2: 'Must be 150 characters or fewer.' } },
    });
    expect(
      readAnswers(form.questions, {
        q0: { answer: { value: 'ok' } },
        q1: { answer: { selected_option: { value: '0' } } },
        q2: { answer: { value: 'w'.repeat(151) } },
      }),
    ).toEqual({ errors: { q2: 'Keep your answer under 150 characters' } });

    // Valid: stored, the modal closes, the acknowledgement DM goes out through delivery.
    const good = await env.emu.interactivity.submitView(member, view.id, {
      q0: { answer: { type: 'plain_text_input', value: 'The forms feature' } },
      q1: { answer: { type: 'static_select', selected_option: { value: '0' } } },
      q2: { answer: { type: 'plain_text_input', value: '' } },
    });
    expect(good.status).toBe(200);
    expect(good.body).toBeUndefined();
    expect(env.emu.interactivity.surfaces(member).view).toBeNull();
    await drainDeliveries();
    const acks = dmOf(member).messages.filter((x) => x.text === 'Thanks &lt;!channel&gt; &amp; see you');
    expect(acks).toHaveLength(1);

    // The same member submits again: the answers are replaced, no second acknowledgement.
    await env.emu.interactivity.clickButton({
      teamId,
      userId: member,
      channel: dm.channel,
      message: env.emu.team(teamId).messages.find(dm.channel, formMsg.ts) as never,
      actionId: FORM_OPEN_ACTION,
    });
    const again = env.emu.interactivity.surfaces(member).view as any;
    await env.emu.interactivity.submitView(member, again.id, {
      q0: { answer: { type: 'plain_text_input', value: 'Forms, and "quotes", =SUM(1)' } },
      q1: { answer: { type: 'static_select', selected_option: { value: '1' } } },
      q2: { answer: { type: 'plain_text_input', value: 'busy' } },
    });
    await drainDeliveries();
    expect(
      dmOf(member).messages.filter((x) => x.text === 'Thanks &lt;!channel&gt; &amp; see you'),
    ).toHaveLength(1);

    // The second member answers through the emulator's member page API.
    const page = await fetch(`${env.emu.url}/_ui/api/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        team: teamId,
        user: second,
        channel: dmOf(second).channel,
        ts: dmOf(second).messages.find((x) => JSON.stringify(x.blocks ?? []).includes(FORM_OPEN_ACTION)).ts,
        action_id: FORM_OPEN_ACTION,
      }),
    });
    expect(((await page.json()) as any).status).toBe(200);
    const secondView = env.emu.interactivity.surfaces(second).view as any;
    await env.emu.interactivity.submitView(second, secondView.id, {
      q0: { answer: { type: 'plain_text_input', value: 'Docs' } },
      q1: { answer: { type: 'static_select', selected_option: { value: '2' } } },
    });

    const data = await call('POST', '/actions/getformresponses', {
      team_id: teamId,
      master_form_id: form.master_form_id,
      form_id: instance.form_id,
    });
    expect(data.statusCode).toBe(200);
    expect(data.json().data.questions).toEqual(QUESTIONS.map((q) => q.question));
    const rows = data.json().data.rows;
    expect(rows).toHaveLength(2);
    const mine = rows.find((r: any) => r.member_id === member);
    expect(mine.answers).toEqual([
      { question: 'What did you ship?', answer: 'Forms, and "quotes", =SUM(1)' },
      { question: 'How was the week?', answer: 'Fine' },
      { question: 'One word for it', answer: 'busy' },
    ]);
    expect(mine.name).not.toBe('');
    expect(
      (await call('GET', `/actions/getallforminstances/${teamId}/${form.master_form_id}`)).json().data[0]
        .responses,
    ).toBe(2);

    const csv = await call('POST', '/actions/exportformresponse', {
      team_id: teamId,
      master_form_id: form.master_form_id,
      form_id: instance.form_id,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('Form details.csv');
    expect(csv.body.startsWith('\uFEFF"Name","Email","Submitted At","What did you ship?"')).toBe(true);
    expect(csv.body).toContain(`"${mine.name}"`);
    expect(csv.body).toContain('"Forms, and ""quotes"", =SUM(1)"');
    expect(csv.body.trim().split('\r\n')).toHaveLength(3);

    // Receipts: the form send and the two acknowledgements.
    const receipts = (await call('GET', `/receipts/getallreceipts/${teamId}`)).json().data as any[];
    expect(receipts.filter((r) => r.description === 'Form: Weekly check-in')).toHaveLength(1);
    expect(receipts.filter((r) => r.description === 'Form acknowledgement: Weekly check-in')).toHaveLength(2);
    expect(receipts.find((r) => r.description === 'Form: Weekly check-in')).toMatchObject({
      action_type: 'Form',
      total_recipient_count: 3,
      successful_recipient_count: 3,
    });

    // Another workspace cannot read the responses; a form id that does not match the instance is a 404.
    expect(
      (
        await call(
          'POST',
          '/actions/getformresponses',
          { team_id: teamId, master_form_id: form.master_form_id, form_id: instance.form_id },
          stranger.token,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', '/actions/getformresponses', {
          team_id: teamId,
          master_form_id: form.master_form_id + 1000,
          form_id: instance.form_id,
        })
      ).statusCode,
    ).toBe(404);

    // Deleted: the button opens a notice, a pending modal's submission gets the closed text.
    await env.emu.interactivity.clickButton({
      teamId,
      userId: crew[2]!,
      channel: dmOf(crew[2]!).channel,
      message: env.emu
        .team(teamId)
        .messages.find(
          dmOf(crew[2]!).channel,
          dmOf(crew[2]!).messages.find((x) => JSON.stringify(x.blocks ?? []).includes(FORM_OPEN_ACTION)).ts,
        ) as never,
      actionId: FORM_OPEN_ACTION,
    });
    const open = env.emu.interactivity.surfaces(crew[2]!).view as any;
    expect((await call('DELETE', `/actions/deleteform/${teamId}/${form.master_form_id}`)).statusCode).toBe(
      200,
    );
    const late = await env.emu.interactivity.submitView(crew[2]!, open.id, {
      q0: { answer: { type: 'plain_text_input', value: 'late' } },
      q1: { answer: { type: 'static_select', selected_option: { value: '0' } } },
    });
    expect(late.body).toEqual({ response_action: 'errors', errors: { q0: FORM_TEXTS.closed } });
    env.emu.interactivity.closeView(crew[2]!);
    await env.emu.interactivity.clickButton({
      teamId,
      userId: member,
      channel: dm.channel,
      message: env.emu.team(teamId).messages.find(dm.channel, formMsg.ts) as never,
      actionId: FORM_OPEN_ACTION,
    });
    expect(JSON.stringify(env.emu.interactivity.surfaces(member).view)).toContain(FORM_TEXTS.closed);
    env.emu.interactivity.closeView(member);
    expect(
      (await call('GET', `/actions/getforms/${teamId}`))
        .json()
        .data.find((f: any) => f.master_form_id === form.master_form_id),
    ).toBe(undefined);
  });

  it('an instance with no answers exports the single row of no data; the Send-form popup posts in a channel', async () => {
    const created = await call('POST', '/actions/createform', formBody({ form_title: 'Quiet form' }));
    const form = created.json().data;
    const sent = await call('POST', '/actions/executeform', {
      team_id: teamId,
      master_form_id: form.master_form_id,
      send_ids: { channels: [channel] },
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      message: 'Form sent successfully',
      data: { status: 'sent', recipients: 1 },
    });
    const instances = (
      await call('GET', `/actions/getallforminstances/${teamId}/${form.master_form_id}`)
    ).json().data;
    expect(instances).toHaveLength(2);
    const csv = await call('POST', '/actions/exportformresponse', {
      team_id: teamId,
      master_form_id: form.master_form_id,
      form_id: sent.json().data.form_id,
    });
    expect(csv.body).toBe(
      '\uFEFF"Name","Email","Submitted At","What did you ship?","How was the week?","One word for it"\r\n"Details of no data"\r\n',
    );
    await drainDeliveries();
    const posted = [...(env.emu.truth(teamId).messages() as Iterable<any>)].filter(
      (m) => m.channel === channel && JSON.stringify(m.blocks ?? []).includes(FORM_OPEN_ACTION),
    );
    expect(posted).toHaveLength(1);
  });
});

describe('who may answer a form (a signed view_submission is still checked)', () => {
  const submission = (instance: number, user: { id: string; team_id?: string }, answer = 'Shipped it') => ({
    type: 'view_submission',
    team: { id: teamId },
    user: { id: user.id, team_id: user.team_id ?? teamId },
    view: {
      id: 'VFORGED01',
      callback_id: FORM_MODAL_CALLBACK,
      private_metadata: JSON.stringify({ instance }),
      state: {
        values: {
          q0: { answer: { type: 'plain_text_input', value: answer } },
          q1: { answer: { type: 'static_select', selected_option: { value: '0' } } },
          q2: { answer: { type: 'plain_text_input', value: null } },
        },
      },
    },
  });
  const answersTo = async (instance: number) =>
    (
      (await env.t.ctx.database.db.execute(
        sql`select member_id, answers from form_responses where instance_id = ${instance} order by member_id`,
      )) as any
    ).rows as { member_id: string; answers: { question: string; answer: string }[] }[];
  const acknowledgements = async (title: string) =>
    ((await call('GET', `/receipts/getallreceipts/${teamId}`)).json().data as any[]).filter(
      (r) => r.description === `Form acknowledgement: ${title}`,
    );
  const strangers = async () => {
    const [ws] = (
      (await env.t.ctx.database.db.execute(
        sql`select bot_user_id from workspaces where team_id = ${teamId}`,
      )) as any
    ).rows;
    const foreign = ([...env.emu.truth(otherTeam).members()] as any[]).find(
      (m) => !m.is_bot && !m.deleted,
    ).id;
    return [
      { id: ws.bot_user_id as string },
      { id: 'UNOBODY0001' },
      { id: foreign as string, team_id: otherTeam },
    ];
  };
  const refused = { response_action: 'errors', errors: { q0: FORM_TEXTS.notRecipient } };

  it('sent to people: only they answer; the bot, an unknown id, another workspace and other members are refused', async () => {
    const created = await call(
      'POST',
      '/actions/createform',
      formBody({ form_title: 'Only for you', dms: { members: [members[5]] } }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const form = created.json().data;
    const [instance] = (
      await call('GET', `/actions/getallforminstances/${teamId}/${form.master_form_id}`)
    ).json().data;
    for (const who of [...(await strangers()), { id: members[6]! }]) {
      const r = await deliverInteractivity(env, submission(instance.form_id, who));
      expect([who.id, r.status, r.body]).toEqual([who.id, 200, refused]);
    }
    expect(await answersTo(instance.form_id)).toEqual([]);
    // The recipient answers; a NUL byte in the answer (no PostgreSQL text holds one) is dropped.
    const ok = await deliverInteractivity(
      env,
      submission(instance.form_id, { id: members[5]! }, 'Ship\u0000ped'),
    );
    expect(ok).toEqual({ status: 200, body: undefined });
    const stored = await answersTo(instance.form_id);
    expect(stored.map((r) => [r.member_id, r.answers[0]!.answer])).toEqual([[members[5], 'Shipped']]);
    expect(await acknowledgements('Only for you')).toHaveLength(1);
  });

  it('posted in a channel: any member of the workspace answers, never a bot or a stranger', async () => {
    const created = await call(
      'POST',
      '/actions/createform',
      formBody({ form_title: 'Channel form', dms: {}, channel_ids: [channel] }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const form = created.json().data;
    const [instance] = (
      await call('GET', `/actions/getallforminstances/${teamId}/${form.master_form_id}`)
    ).json().data;
    for (const who of await strangers()) {
      const r = await deliverInteractivity(env, submission(instance.form_id, who));
      expect([who.id, r.body]).toEqual([who.id, refused]);
    }
    for (const m of [members[7]!, members[8]!])
      expect((await deliverInteractivity(env, submission(instance.form_id, { id: m }))).body).toBeUndefined();
    expect((await answersTo(instance.form_id)).map((r) => r.member_id)).toEqual(
      [members[7], members[8]].sort(),
    );
    expect(await acknowledgements('Channel form')).toHaveLength(2);
  });
});

describe('recurring forms on the schedule clock', () => {
  it('a weekly form makes one instance per run with two workers; deleting it stops the next', async () => {
    clockMs = Date.parse('2027-03-19T12:00:00Z'); // a Friday, GMT
    const form = await workerA.create(user.userid, {
      ...(formBody({
        instant: false,
        recurring: true,
        frequency: 'Weekly',
        days: ['mon'],
        time: '09:00',
      }) as any),
      sender: 'bot',
      channel_ids: [],
      dms: { members: [members[5]!], tags: [], channels: [] },
      sendtoworkspace: false,
      questions: QUESTIONS.map((q) => ({ description: '', options: [], optional: false, ...q })),
    });
    expect(form.next_run).toBe('2027-03-22T09:00:00.000Z');
    // Before the run: nothing.
    clockMs = Date.parse('2027-03-22T08:59:00Z');
    await workerA.planDueForms();
    expect(await instancesOf(form.master_form_id)).toEqual([]);
    // The first run and the second, across the change to summer time (09:00 London is 08:00 UTC after it).
    for (const at of ['2027-03-22T09:00:00.000Z', '2027-03-29T08:00:00.000Z']) {
      clockMs = Date.parse(at) + 20_000;
      await Promise.all([workerA.planDueForms(), workerB.planDueForms()]);
      await Promise.all([workerA.sendDueInstances(), workerB.sendDueInstances()]);
    }
    let instances = await instancesOf(form.master_form_id);
    expect(instances.map((i) => [i.run_key, i.status])).toEqual([
      ['2027-03-22T09:00:00.000Z', 'sent'],
      ['2027-03-29T08:00:00.000Z', 'sent'],
    ]);
    expect(new Set(instances.map((i) => i.receipt_id)).size).toBe(2);
    const listed = await workerA.list(teamId);
    expect(listed.find((f) => f.master_form_id === form.master_form_id)).toMatchObject({
      instances: 2,
      next_run: '2027-04-05T08:00:00.000Z',
      cron_string: '0 9 * * 1',
      schedule: 'Weekly (mon) at 09:00',
    });

    await workerA.remove(teamId, form.master_form_id);
    clockMs = Date.parse('2027-04-05T08:00:30Z');
    await Promise.all([workerA.planDueForms(), workerB.planDueForms()]);
    await Promise.all([workerA.sendDueInstances(), workerB.sendDueInstances()]);
    instances = await instancesOf(form.master_form_id);
    expect(instances).toHaveLength(2);
    await expect(workerA.remove(teamId, form.master_form_id)).rejects.toThrow('No such form');
  });

  it('a run planned but not sent when the form is deleted is skipped, not sent', async () => {
    clockMs = Date.parse('2027-05-03T07:00:00Z');
    const form = await workerA.create(user.userid, {
      ...(formBody({ instant: false, recurring: true, frequency: 'Everyday', time: '09:00' }) as any),
      sender: 'bot',
      channel_ids: [],
      dms: { members: [members[6]!], tags: [], channels: [] },
      sendtoworkspace: false,
      days: [],
      questions: QUESTIONS.map((q) => ({ description: '', options: [], optional: false, ...q })),
    });
    clockMs = Date.parse('2027-05-03T08:00:10Z'); // 09:00 BST
    await workerA.planDueForms();
    await workerA.remove(teamId, form.master_form_id);
    expect(await workerB.sendDueInstances()).toBe(0);
    expect(await instancesOf(form.master_form_id)).toEqual([
      expect.objectContaining({ status: 'skipped', receipt_id: null }),
    ]);
  });

  it('a run more than the grace late is skipped, and the next is planned from now (no burst)', async () => {
    clockMs = Date.parse('2027-06-01T05:00:00Z');
    const form = await workerA.create(user.userid, {
      ...(formBody({ instant: false, recurring: true, frequency: 'Everyday', time: '07:00' }) as any),
      sender: 'bot',
      channel_ids: [],
      dms: { members: [members[7]!], tags: [], channels: [] },
      sendtoworkspace: false,
      days: [],
      questions: QUESTIONS.map((q) => ({ description: '', options: [], optional: false, ...q })),
    });
    clockMs = Date.parse('2027-06-04T11:00:00Z');
    await workerA.planDueForms();
    expect(await instancesOf(form.master_form_id)).toEqual([
      expect.objectContaining({ run_key: '2027-06-01T06:00:00.000Z', status: 'skipped' }),
    ]);
    const row = (await workerA.list(teamId)).find((f) => f.master_form_id === form.master_form_id)!;
    expect(row.next_run).toBe('2027-06-05T06:00:00.000Z');
    await workerA.remove(teamId, form.master_form_id);
  });

  it('a scheduled one-time form is sent once at its time, then has no next run', async () => {
    clockMs = Date.now();
    const at = new Date(clockMs + 2 * 86_400_000);
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/London',
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .formatToParts(at)
        .map((x) => [x.type, x.value]),
    );
    const form = await workerA.create(user.userid, {
      ...(formBody({
        instant: false,
        post_at: { date: `${p.day}/${p.month}/${p.year}`, time: `${p.hour}:${p.minute}` },
      }) as any),
      sender: 'bot',
      channel_ids: [],
      dms: { members: [members[8]!], tags: [], channels: [] },
      sendtoworkspace: false,
      recurring: false,
      days: [],
      questions: QUESTIONS.map((q) => ({ description: '', options: [], optional: false, ...q })),
    });
    expect(form).toMatchObject({ recurring: false, cron_string: null });
    clockMs = at.getTime() + 30_000;
    for (let i = 0; i < 2; i++) {
      await workerA.planDueForms();
      await workerB.sendDueInstances();
    }
    expect(await instancesOf(form.master_form_id)).toEqual([expect.objectContaining({ status: 'sent' })]);
    expect((await workerA.list(teamId)).find((f) => f.master_form_id === form.master_form_id)!.next_run).toBe(
      null,
    );
  });
});
