import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulator, receiver, type Emu } from './helpers.ts';

/*
 * Conformance of a modal's input elements: what views.open refuses for them, and the shape each element's
 * answer takes in a view_submission's `view.state.values` (checkboxes: selected_options; number_input: a value
 * string; datepicker: selected_date; radio_buttons and static_select: selected_option), with the options'
 * own text beside the value, as Slack's client sends them.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

let emu: Emu;
let client: WebClient;
let app: Awaited<ReturnType<typeof receiver>>;

const plain = (text: string) => ({ type: 'plain_text', text });
const option = (text: string, value: string) => ({ text: plain(text), value });
const input = (blockId: string, element: Record<string, unknown>, optional = false) => ({
  type: 'input',
  block_id: blockId,
  optional,
  label: plain(blockId),
  element: { action_id: 'answer', ...element },
});
const modal = (blocks: unknown[]) => ({ type: 'modal', callback_id: 'kinds', title: plain('Kinds'), blocks });

beforeAll(async () => {
  app = await receiver();
  emu = await emulator({ interactivityUrl: app.url });
  client = new WebClient(emu.install().botToken, { slackApiUrl: emu.apiUrl });
});
afterAll(async () => {
  await emu.close();
  await app.close();
});

const submissions = () =>
  app.received
    .map((r) => JSON.parse(new URLSearchParams(r.body).get('payload') as string) as Record<string, any>)
    .filter((p) => p.type === 'view_submission');

async function open(view: unknown, user: string) {
  const trigger = emu.interactivity.issueTrigger(emu.team().id, user);
  return client.views.open({ trigger_id: trigger, view: view as never });
}

describe('modal input elements', () => {
  it('views.open refuses elements against their Block Kit rules, naming the field', async () => {
    const user = emu.team().ws.members[3]?.id as string;
    const eleven = Array.from({ length: 11 }, (_, i) => option(String(i), String(i)));
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'checkboxes', options: eleven }, '/view/blocks/0/element/options'],
      [{ type: 'radio_buttons', options: eleven }, '/view/blocks/0/element/options'],
      [{ type: 'checkboxes', options: [] }, '/view/blocks/0/element'],
      [{ type: 'number_input' }, '/view/blocks/0/element'],
      [
        { type: 'number_input', is_decimal_allowed: false, min_value: '1.5' },
        '/view/blocks/0/element/min_value',
      ],
      [
        { type: 'number_input', is_decimal_allowed: true, min_value: '5', max_value: '1' },
        '/view/blocks/0/element/min_value',
      ],
      [{ type: 'datepicker', initial_date: '27/11/2026' }, '/view/blocks/0/element/initial_date'],
    ];
    for (const [element, pointer] of cases) {
      const refused = await open(modal([input('q', element)]), user).catch(
        (e: { data: Record<string, any> }) => e.data,
      );
      expect(refused, JSON.stringify(element)).toMatchObject({ ok: false, error: 'invalid_arguments' });
      expect(refused.response_metadata.messages[0]).toContain(`[json-pointer:${pointer}]`);
    }
    const ten = Array.from({ length: 10 }, (_, i) => option(String(i), String(i)));
    expect(await open(modal([input('q', { type: 'checkboxes', options: ten })]), user)).toMatchObject({
      ok: true,
    });
  });

  it('each element answers in its own shape in view.state.values; untouched ones are null or empty', async () => {
    const team = emu.team();
    const user = team.ws.members[4]?.id as string;
    const blocks = [
      input('boxes', {
        type: 'checkboxes',
        options: [option('Red', '0'), option('Blue', '1'), option('Green', '2')],
      }),
      input('count', { type: 'number_input', is_decimal_allowed: false, min_value: '0', max_value: '10' }),
      input('day', { type: 'datepicker' }),
      input('stars', { type: 'radio_buttons', options: ['1', '2', '3', '4', '5'].map((n) => option(n, n)) }),
      input('yes', { type: 'radio_buttons', options: [option('Yes', '0'), option('No', '1')] }, true),
      input('maybe_day', { type: 'datepicker' }, true),
      input('maybe_boxes', { type: 'checkboxes', options: [option('A', '0')] }, true),
      input('maybe_count', { type: 'number_input', is_decimal_allowed: true }, true),
    ];
    const opened = await open(modal(blocks), user);
    const viewId = String(opened.view?.id);

    // A required datepicker or checkboxes left empty is refused in the modal; the app hears nothing.
    const before = submissions().length;
    const empty = await emu.interactivity.submitView(user, viewId, {
      count: { answer: { type: 'number_input', value: '3' } },
      stars: { answer: { type: 'radio_buttons', selected_option: { value: '4' } } },
    });
    expect(empty).toMatchObject({
      local: true,
      body: {
        response_action: 'errors',
        errors: {
          boxes: 'Please complete this required field.',
          day: 'Please complete this required field.',
        },
      },
    });
    expect(submissions()).toHaveLength(before);

    const sent = await emu.interactivity.submitView(user, viewId, {
      boxes: { answer: { type: 'checkboxes', selected_options: [{ value: '0' }, { value: '2' }] } },
      count: { answer: { type: 'number_input', value: '7' } },
      day: { answer: { type: 'datepicker', selected_date: '2026-10-25' } },
      stars: { answer: { type: 'radio_buttons', selected_option: { value: '4' } } },
      maybe_day: { answer: { type: 'datepicker', selected_date: '' } },
    });
    expect(sent.status).toBe(200);
    const payload = submissions().at(-1)!;
    expect(payload.view.state.values).toEqual({
      boxes: {
        answer: {
          type: 'checkboxes',
          selected_options: [
            { text: plain('Red'), value: '0' },
            { text: plain('Green'), value: '2' },
          ],
        },
      },
      count: { answer: { type: 'number_input', value: '7' } },
      day: { answer: { type: 'datepicker', selected_date: '2026-10-25' } },
      stars: { answer: { type: 'radio_buttons', selected_option: { text: plain('4'), value: '4' } } },
      yes: { answer: { type: 'radio_buttons', selected_option: null } },
      maybe_day: { answer: { type: 'datepicker', selected_date: null } },
      maybe_boxes: { answer: { type: 'checkboxes', selected_options: [] } },
      maybe_count: { answer: { type: 'number_input', value: null } },
    });
    expect(emu.interactivity.surfaces(user).view).toBeNull();
  });
});
