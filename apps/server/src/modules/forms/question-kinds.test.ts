import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKBOX_JOIN, FORM_OPEN_ACTION, FORM_TEXTS } from '@flywheel/shared/forms';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  drainDeliveries as drainAll,
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/*
 * The richer question types (checkboxes, number, date, rating, yes/no): their definitions checked, their Slack
 * elements, what members submit through the emulator as Slack's client sends it, and what is stored and
 * exported, counted here independently of the server.
 */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let teamId: string;
let members: string[];

beforeAll(async () => {
  env = await slackTestEnv(
    { workspaces: [{ seed: 41, members: 14, channels: 2, days: 2 }] },
    { DELIVERY_RETRY_BASE_MS: '20' },
  );
  [teamId] = env.emu.teamIds as [string];
  user = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  members = [...env.emu.truth(teamId).members()]
    .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
    .map((m: any) => m.id);
}, 120_000);
afterAll(() => env.close());

const call = (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object) =>
  env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(user.token), payload });

const COLOURS = ['Red', 'Blue', 'Green', 'Black'];
const QUESTIONS = [
  { question: 'Colours you like', type: 'checkboxes', options: COLOURS },
  { question: 'Cups of coffee a day', type: 'number', min: 0, max: 12 },
  { question: 'Your start date', type: 'date' },
  { question: 'Rate the onboarding', type: 'rating' },
  { question: 'Would you recommend us?', type: 'yesno' },
  { question: 'Height in metres', type: 'number', decimal: true, optional: true },
  { question: 'Anything else', type: 'shortDesc', optional: true },
];

const formBody = (over: object = {}) => ({
  team_id: teamId,
  form_title: 'Kinds of questions',
  form_description: 'Every kind of answer',
  sender: 'b',
  dms: { members: members.slice(0, 4) },
  instant: true,
  questions: QUESTIONS,
  ...over,
});

function dmOf(member: string) {
  const im = (env.emu.truth(teamId).channels() as any[]).find((c) => c.is_im && c.members?.includes(member));
  const messages = [...(env.emu.truth(teamId).messages() as Iterable<any>)].filter(
    (m) => im && m.channel === im.id,
  );
  return { channel: im?.id as string, messages };
}

/** The member presses the form message's button; answers the modal now open. */
async function openForm(member: string): Promise<any> {
  const dm = dmOf(member);
  const msg = dm.messages.find((x) => JSON.stringify(x.blocks ?? []).includes(FORM_OPEN_ACTION));
  const click = await env.emu.interactivity.clickButton({
    teamId,
    userId: member,
    channel: dm.channel,
    message: env.emu.team(teamId).messages.find(dm.channel, msg.ts) as never,
    actionId: FORM_OPEN_ACTION,
  });
  expect(click.status).toBe(200);
  return env.emu.interactivity.surfaces(member).view;
}

describe('question definitions', () => {
  const one = (q: object) => ({ questions: [{ question: 'Q', ...q }] });
  const cases: [string, object, string][] = [
    ['checkboxes without options', one({ type: 'checkboxes', options: [] }), FORM_TEXTS.optionEmpty],
    [
      'checkboxes with six options',
      one({ type: 'checkboxes', options: ['1', '2', '3', '4', '5', '6'] }),
      FORM_TEXTS.maxOptions,
    ],
    [
      'checkboxes with the same option twice',
      one({ type: 'checkboxes', options: ['A', 'a'] }),
      'Options of a question must differ',
    ],
    [
      'a number question whose min is over its max',
      one({ type: 'number', min: 5, max: 1 }),
      FORM_TEXTS.numberBounds,
    ],
    ['decimal bounds on a whole number question', one({ type: 'number', min: 0.5 }), FORM_TEXTS.wholeBounds],
    ['bounds beyond a billion', one({ type: 'number', max: 1e12 }), FORM_TEXTS.boundsRange],
    ['a min that is not a number', one({ type: 'number', min: 'five' }), 'min must be a number'],
    [
      'decimal that is not a boolean',
      one({ type: 'number', decimal: 'yes' }),
      'decimal must be true or false',
    ],
    [
      'an unknown type',
      one({ type: 'slider' }),
      'type must be one of descriptive, mcq, shortDesc, checkboxes, number, date, rating, yesno',
    ],
  ];
  it.each(cases)('refuses %s with a 400 naming the field', async (_name, over, text) => {
    const res = await call('POST', '/actions/createform', formBody(over));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(text);
  });

  it('keeps only what a type uses: no options on a rating, bounds only on numbers', async () => {
    const res = await call(
      'POST',
      '/actions/createform',
      formBody({
        instant: false,
        recurring: true,
        frequency: 'Everyday',
        time: '09:00',
        form_title: 'Settings kept',
        questions: [
          { question: 'Rate', type: 'rating', options: ['x'], min: 1 },
          { question: 'How many', type: 'number', min: -3 },
        ],
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().data.questions).toEqual([
      { question: 'Rate', description: '', type: 'rating', options: [], optional: false },
      {
        question: 'How many',
        description: '',
        type: 'number',
        options: [],
        optional: false,
        min: -3,
        max: null,
        decimal: false,
      },
    ]);
  });
});

describe('a form with every kind of question, answered in Slack', () => {
  it('opens Slack elements per type, refuses out-of-range numbers in the modal, stores and exports what was submitted', async () => {
    const created = await call('POST', '/actions/createform', formBody());
    expect(created.statusCode).toBe(201);
    const form = created.json().data;
    const [instance] = (
      await call('GET', `/actions/getallforminstances/${teamId}/${form.master_form_id}`)
    ).json().data as any[];
    await drainAll(env, teamId);

    const [first, second, third] = members as [string, string, string];
    const view = await openForm(first);
    const inputs = view.blocks.filter((b: any) => b.type === 'input');
    expect(inputs.map((b: any) => b.element.type)).toEqual([
      'checkboxes',
      'number_input',
      'datepicker',
      'radio_buttons',
      'radio_buttons',
      'number_input',
      'plain_text_input',
    ]);
    expect(inputs[0].element.options.map((o: any) => o.text.text)).toEqual(COLOURS);
    expect(inputs[1].element).toMatchObject({ is_decimal_allowed: false, min_value: '0', max_value: '12' });
    expect(inputs[3].element.options.map((o: any) => o.text.text)).toEqual(['1', '2', '3', '4', '5']);
    expect(inputs[4].element.options.map((o: any) => o.text.text)).toEqual(['Yes', 'No']);
    expect(inputs[5].element).toEqual({
      type: 'number_input',
      action_id: 'answer',
      is_decimal_allowed: true,
    });

    // What each member submits, as Slack's client sends it; the expected stored answers are written here.
    const submissions: Record<string, { values: Record<string, any>; expect: string[] }> = {
      [first]: {
        values: {
          q0: { answer: { type: 'checkboxes', selected_options: [{ value: '2' }, { value: '0' }] } },
          q1: { answer: { type: 'number_input', value: '3' } },
          q2: { answer: { type: 'datepicker', selected_date: '2026-10-25' } },
          q3: { answer: { type: 'radio_buttons', selected_option: { value: '4' } } },
          q4: { answer: { type: 'radio_buttons', selected_option: { value: '0' } } },
          q5: { answer: { type: 'number_input', value: '1.85' } },
          q6: { answer: { type: 'plain_text_input', value: '=cmd|calc' } },
        },
        expect: ['Red; Green', '3', '2026-10-25', '5', 'Yes', '1.85', '=cmd|calc'],
      },
      [second]: {
        values: {
          q0: { answer: { type: 'checkboxes', selected_options: [{ value: '1' }] } },
          q1: { answer: { type: 'number_input', value: '0' } },
          q2: { answer: { type: 'datepicker', selected_date: '2027-01-04' } },
          q3: { answer: { type: 'radio_buttons', selected_option: { value: '1' } } },
          q4: { answer: { type: 'radio_buttons', selected_option: { value: '1' } } },
        },
        expect: ['Blue', '0', '2027-01-04', '2', 'No', '', ''],
      },
    };

    // Out of range, a decimal where whole numbers are asked, a made-up option, a date that does not exist:
    // the modal shows the error under its question (Slack's client is not trusted to have checked them).
    const bad = await env.emu.interactivity.submitView(first, view.id, {
      ...submissions[first]!.values,
      q0: { answer: { type: 'checkboxes', selected_options: [{ value: '9' }] } },
      q1: { answer: { type: 'number_input', value: '13' } },
      q2: { answer: { type: 'datepicker', selected_date: '2026-02-30' } },
      q5: { answer: { type: 'number_input', value: 'abc' } },
    });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual({
      response_action: 'errors',
      errors: {
        q0: FORM_TEXTS.chooseOption,
        q1: FORM_TEXTS.tooLarge(12),
        q2: FORM_TEXTS.notADate,
        q5: FORM_TEXTS.notANumber,
      },
    });
    const low = await env.emu.interactivity.submitView(first, view.id, {
      ...submissions[first]!.values,
      q1: { answer: { type: 'number_input', value: '-1' } },
    });
    expect(low.body).toEqual({ response_action: 'errors', errors: { q1: FORM_TEXTS.tooSmall(0) } });
    const half = await env.emu.interactivity.submitView(first, view.id, {
      ...submissions[first]!.values,
      q1: { answer: { type: 'number_input', value: '2.5' } },
    });
    expect(half.body).toEqual({ response_action: 'errors', errors: { q1: FORM_TEXTS.notWhole } });
    expect(env.emu.interactivity.surfaces(first).view).not.toBeNull();

    const good = await env.emu.interactivity.submitView(first, view.id, submissions[first]!.values);
    expect(good).toMatchObject({ status: 200 });
    expect(good.body).toBeUndefined();
    const secondView = await openForm(second);
    expect(
      (await env.emu.interactivity.submitView(second, secondView.id, submissions[second]!.values)).body,
    ).toBe(undefined);
    // A required checkboxes question left empty never reaches the app: Slack's client keeps it.
    const thirdView = await openForm(third);
    const kept = await env.emu.interactivity.submitView(third, thirdView.id, {
      ...submissions[second]!.values,
      q0: { answer: { type: 'checkboxes', selected_options: [] } },
    });
    expect(kept).toMatchObject({
      local: true,
      body: { errors: { q0: 'Please complete this required field.' } },
    });
    env.emu.interactivity.closeView(third);

    const data = (
      await call('POST', '/actions/getformresponses', {
        team_id: teamId,
        master_form_id: form.master_form_id,
        form_id: instance.form_id,
      })
    ).json().data;
    expect(data.question_details.map((q: any) => q.type)).toEqual(QUESTIONS.map((q) => q.type));
    expect(data.rows).toHaveLength(2);
    for (const [member, s] of Object.entries(submissions)) {
      const row = data.rows.find((r: any) => r.member_id === member);
      expect(row.answers.map((a: any) => a.answer)).toEqual(s.expect);
      expect(row.answers[0].values).toEqual(s.expect[0]!.split(CHECKBOX_JOIN));
    }

    const csv = await call('POST', '/actions/exportformresponse', {
      team_id: teamId,
      master_form_id: form.master_form_id,
      form_id: instance.form_id,
    });
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      ['Name', 'Email', 'Submitted At', ...QUESTIONS.map((q) => q.question)].map((h) => `"${h}"`).join(','),
    );
    expect(lines).toHaveLength(3);
    const firstLine = lines.find((l) => l.includes('"Red; Green"'))!;
    // Numbers bare, checkboxes joined, a formula defused.
    expect(firstLine.endsWith(`,"Red; Green",3,"2026-10-25","5","Yes",1.85,"'=cmd|calc"`)).toBe(true);
    expect(lines.find((l) => l.includes('"Blue"'))!.endsWith(`,"Blue",0,"2027-01-04","2","No","",""`)).toBe(
      true,
    );
  });
});
