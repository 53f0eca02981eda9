import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type SlackMessage } from '@flywheel/slack-emulator';
import { POLL_ADD_ACTION, POLL_VOTE_ACTION } from '@flywheel/shared/polls';
import { FORM_OPEN_ACTION } from '@flywheel/shared/forms';
import type { InteractivityListener } from '../modules/intake/listeners.ts';
import { formsModule } from '../modules/forms/module.ts';
import { formMessage, formModal, readAnswers } from '../modules/forms/modal.ts';
import type { StoredQuestion } from '../modules/forms/table.ts';
import { modules } from '../modules/index.ts';
import { pollsModule } from '../modules/polls/module.ts';
import { ADD_BLOCK, ADD_INPUT, addOptionModal, buttonPollMessage } from '../modules/polls/render.ts';
import { slackInteractivityPayloads } from './interactivity.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the payloads are Slack's open JSON */

/*
 * The interactivity catalogue against the payloads the bundled emulator sends as Slack's client would (a member
 * pressing a button of a message the product renders, submitting a modal the product opens): each parses with
 * its type's schema, and the module listener that should answer it is the first one intake would pick.
 */

let emu: Emulator;
let hook: http.Server;
/** What the emulator POSTed to the Interactivity URL, oldest first. */
const received: any[] = [];
let teamId: string;
let member: string;
let channel: string;

beforeAll(async () => {
  hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(new URLSearchParams(body).get('payload') ?? 'null'));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  emu = await startEmulator({
    workspace: { seed: 7, members: 6, channels: 2, days: 1 },
    interactivityUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/slack/interactivity`,
  });
  teamId = emu.teamIds[0]!;
  member = ([...emu.truth(teamId).members()] as any[]).find((m) => !m.is_bot && !m.deleted).id;
  channel = (emu.truth(teamId).channels() as any[]).find((c) => !c.is_im && !c.is_archived).id;
}, 60_000);
afterAll(async () => {
  await emu?.close();
  await new Promise((resolve) => hook?.close(resolve));
});

const listeners: InteractivityListener[] = modules.flatMap((m) => m.interactivity ?? []);
/** The listener intake's dispatch would hand the payload to (modules/intake/listeners.ts `dispatchInteractivity`). */
const answeredBy = (payload: any) =>
  listeners.find((l) => {
    if (l.type !== payload.type) return false;
    const parsed = l.payload.safeParse(payload);
    return parsed.success && (!l.match || l.match(parsed.data));
  });

async function press(message: { text: string; blocks: unknown[] }, actionId: string): Promise<any> {
  const before = received.length;
  const ts = `${Math.floor(Date.now() / 1000)}.000100`;
  const result = await emu.interactivity.clickButton({
    teamId,
    userId: member,
    channel,
    message: { ...message, ts, type: 'message', user: 'UBOT' } as unknown as SlackMessage,
    actionId,
  });
  expect(result.status, result.error).toBe(200);
  expect(received).toHaveLength(before + 1);
  return received[before];
}

async function submit(view: unknown, values: Record<string, unknown>): Promise<any> {
  const before = received.length;
  const opened = emu.interactivity.openView(teamId, member, view as Record<string, unknown>);
  const result = await emu.interactivity.submitView(member, String(opened.id), values as any);
  expect(result.status, result.error ?? JSON.stringify(result.body)).toBe(200);
  expect(received).toHaveLength(before + 1);
  return received[before];
}

const poll = buttonPollMessage({
  id: 41,
  question: 'Lunch on Friday?',
  options: [
    { emoji: '🍕', emoji_code: 'pizza', value: 'Pizza' },
    { emoji: '', emoji_code: '', value: 'Sushi' },
  ],
  ballot: { anonymous: false, multiple: false, max_choices: null, allow_add: true, results: 'live' },
  counts: new Map(),
  voters: 0,
  expiresAt: Date.now() + 3_600_000,
  closed: false,
  tz: 'UTC',
});

describe('block_actions as the emulator sends them', () => {
  it('a poll vote button: parsed, with the workspace, member, trigger, channel and value; the polls vote listener answers', async () => {
    const payload = await press(poll, `${POLL_VOTE_ACTION}1`);
    const parsed = slackInteractivityPayloads.block_actions.parse(payload);
    expect(parsed.team.id).toBe(teamId);
    expect(parsed.user.id).toBe(member);
    expect(parsed.trigger_id).not.toBe('');
    expect(parsed.channel?.id).toBe(channel);
    expect(parsed.container?.channel_id).toBe(channel);
    expect(parsed.actions).toMatchObject([{ action_id: `${POLL_VOTE_ACTION}1`, value: '41:1' }]);
    // Unread fields pass through (the catalogue is loose).
    expect(parsed.response_url).toEqual(payload.response_url);
    expect(answeredBy(payload)).toBe(pollsModule.interactivity![0]);
  });

  it("a poll's Add an option button goes to the polls add listener", async () => {
    const payload = await press(poll, POLL_ADD_ACTION);
    expect(slackInteractivityPayloads.block_actions.parse(payload).actions[0]?.value).toBe('41');
    expect(answeredBy(payload)).toBe(pollsModule.interactivity![1]);
  });

  it("a form message's button goes to the forms listener", async () => {
    const payload = await press(
      formMessage({ name: 'Retro', description: 'How did it go?' }, 9),
      FORM_OPEN_ACTION,
    );
    expect(slackInteractivityPayloads.block_actions.parse(payload).actions[0]?.value).toBe('9');
    expect(answeredBy(payload)).toBe(formsModule.interactivity![0]);
  });

  it("a button that is none of Flywheel's, or a payload without its trigger, reaches no listener", async () => {
    const other = {
      text: 'x',
      blocks: [{ type: 'actions', elements: [{ type: 'button', action_id: 'someone_else', value: '1' }] }],
    };
    const payload = await press(other, 'someone_else');
    expect(slackInteractivityPayloads.block_actions.safeParse(payload).success).toBe(true);
    expect(answeredBy(payload)).toBeUndefined();
    const { trigger_id: _, ...untriggered } = await press(poll, `${POLL_VOTE_ACTION}0`);
    expect(slackInteractivityPayloads.block_actions.safeParse(untriggered).success).toBe(false);
    expect(answeredBy(untriggered)).toBeUndefined();
  });
});

describe('view_submission as the emulator sends it', () => {
  it("the poll's add-option modal: the typed option is in state.values where the service reads it", async () => {
    const payload = await submit(addOptionModal(41), { [ADD_BLOCK]: { [ADD_INPUT]: { value: 'Tacos' } } });
    const parsed = slackInteractivityPayloads.view_submission.parse(payload);
    expect(parsed.team?.id).toBe(teamId);
    expect(parsed.user.id).toBe(member);
    expect(JSON.parse(parsed.view.private_metadata ?? '')).toEqual({ poll: 41 });
    expect(parsed.view.state.values[ADD_BLOCK]?.[ADD_INPUT]?.value).toBe('Tacos');
    expect(answeredBy(payload)).toBe(pollsModule.interactivity![2]);
  });

  it("a form's modal with every question kind: parsed, read back into the answers, to the forms listener", async () => {
    const q = (type: StoredQuestion['type'], options: string[] = []): StoredQuestion => ({
      question: `A ${type} question`,
      description: '',
      type,
      options,
      optional: false,
    });
    const questions = [
      q('shortDesc'),
      q('descriptive'),
      q('mcq', ['Red', 'Blue']),
      q('checkboxes', ['Tea', 'Coffee', 'Water']),
      q('number'),
      q('date'),
      q('rating'),
      q('yesno'),
    ];
    const payload = await submit(formModal({ name: 'Everything', description: 'All kinds', questions }, 12), {
      q0: { answer: { value: 'Short' } },
      q1: { answer: { value: 'A longer answer' } },
      q2: { answer: { selected_option: { value: '1' } } },
      q3: { answer: { selected_options: [{ value: '0' }, { value: '2' }] } },
      q4: { answer: { value: '42' } },
      q5: { answer: { selected_date: '2027-03-19' } },
      q6: { answer: { selected_option: { value: '4' } } },
      q7: { answer: { selected_option: { value: '0' } } },
    });
    const parsed = slackInteractivityPayloads.view_submission.parse(payload);
    expect(JSON.parse(parsed.view.private_metadata ?? '')).toEqual({ instance: 12 });
    // The emulator sends each element's state in its own shape (a picked option with its text beside its value).
    expect(parsed.view.state.values.q2?.answer).toMatchObject({
      type: 'static_select',
      selected_option: { value: '1' },
    });
    const read = readAnswers(questions, parsed.view.state.values);
    expect(read).toEqual({
      answers: [
        { question: 'A shortDesc question', answer: 'Short' },
        { question: 'A descriptive question', answer: 'A longer answer' },
        { question: 'A mcq question', answer: 'Blue' },
        expect.objectContaining({ question: 'A checkboxes question', values: ['Tea', 'Water'] }),
        { question: 'A number question', answer: '42' },
        { question: 'A date question', answer: '2027-03-19' },
        { question: 'A rating question', answer: '5' },
        { question: 'A yesno question', answer: 'Yes' },
      ],
    });
    expect(answeredBy(payload)).toBe(formsModule.interactivity![1]);
  });

  it('a legacy dialog_submission has no schema in the catalogue and reaches no listener', async () => {
    emu.interactivity.openDialog(teamId, member, { callback_id: 'legacy', elements: [] }, channel);
    const before = received.length;
    expect((await emu.interactivity.submitDialog(member, { name: 'x' })).status).toBe(200);
    const payload = received[before];
    expect(payload.type).toBe('dialog_submission');
    expect(Object.keys(slackInteractivityPayloads)).not.toContain(payload.type);
    expect(answeredBy(payload)).toBeUndefined();
  });
});
