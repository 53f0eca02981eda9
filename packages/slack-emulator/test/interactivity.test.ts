import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../src/index.ts';
import { emulator, receiver, type Emu } from './helpers.ts';

type Payload = Record<string, unknown> & { type: string; trigger_id: string };
let now = Date.now();
let emu: Emu;
let client: WebClient;
let app: Awaited<ReturnType<typeof receiver>>;
let onPayload: (p: Payload) => Promise<string | undefined> = async () => undefined;
const payloads: Payload[] = [];
const pending: Promise<unknown>[] = [];

beforeAll(async () => {
  app = await receiver();
  app.server.removeAllListeners('request');
  app.server.on('request', (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      app.received.push({ headers: req.headers, body, at: Date.now() });
      const payload = JSON.parse(new URLSearchParams(body).get('payload') as string) as Payload;
      payloads.push(payload);
      const work = onPayload(payload).then((answer) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer ?? '');
      });
      pending.push(work);
    });
  });
  emu = await emulator({ interactivityUrl: app.url, clock: () => now });
  client = new WebClient(emu.install().botToken, { slackApiUrl: emu.apiUrl });
});
afterAll(async () => {
  await emu.close();
  await app.close();
});

describe('interactivity', () => {
  it('a button press delivers signed block_actions; the trigger opens a modal once, within 3 s', async () => {
    const team = emu.team();
    const channel = team.channels.all()[0]?.id as string;
    await client.conversations.join({ channel });
    const blocks = [
      {
        type: 'actions',
        block_id: 'poll',
        elements: [
          {
            type: 'button',
            action_id: 'open_form',
            value: '42',
            text: { type: 'plain_text', text: 'Answer' },
          },
        ],
      },
    ];
    const posted = await client.chat.postMessage({ channel, text: 'Form', blocks });
    const user = team.channels.members(channel)[0] as string;
    const results: unknown[] = [];
    onPayload = async (p) => {
      const view = {
        type: 'modal',
        callback_id: 'form',
        title: { type: 'plain_text', text: 'Survey' },
        submit: { type: 'plain_text', text: 'Send' },
        blocks: [
          {
            type: 'input',
            block_id: 'q1',
            label: { type: 'plain_text', text: 'Why?' },
            element: { type: 'plain_text_input', action_id: 'a' },
          },
        ],
      } as Parameters<WebClient['views']['open']>[0]['view'];
      results.push(await client.views.open({ trigger_id: p.trigger_id, view }));
      results.push(
        await client.views.open({ trigger_id: p.trigger_id, view }).catch((e: { data: unknown }) => e.data),
      );
      return undefined;
    };
    const message = team.messages.find(channel, posted.ts as string);
    const ack = await emu.interactivity.clickButton({
      teamId: team.id,
      userId: user,
      channel,
      message: message as never,
      actionId: 'open_form',
    });
    await Promise.all(pending);
    expect(ack.status).toBe(200);
    const raw = app.received[0];
    expect(raw?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(
      verifySignature({
        signingSecret: emu.app.signingSecret,
        timestamp: String(raw?.headers['x-slack-request-timestamp']),
        signature: String(raw?.headers['x-slack-signature']),
        body: raw?.body as string,
        nowSeconds: Math.floor(now / 1000),
      }),
    ).toBe(true);
    expect(payloads[0]).toMatchObject({
      type: 'block_actions',
      user: { id: user },
      container: { message_ts: posted.ts, channel_id: channel },
      actions: [{ action_id: 'open_form', block_id: 'poll', value: '42' }],
    });
    expect(results[0]).toMatchObject({ ok: true, view: { callback_id: 'form' } });
    expect(results[1]).toMatchObject({ ok: false, error: 'exchanged_trigger_id' });
    const stale = emu.interactivity.issueTrigger(team.id, user);
    now += 3001;
    await expect(
      client.views.open({
        trigger_id: stale,
        view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] },
      }),
    ).rejects.toMatchObject({ data: { error: 'expired_trigger_id' } });
    await expect(
      client.views.open({
        trigger_id: 'made.up.trigger',
        view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] },
      }),
    ).rejects.toMatchObject({ data: { error: 'invalid_trigger_id' } });

    const surface = emu.interactivity.surfaces(user);
    expect(surface.view).toMatchObject({ callback_id: 'form' });
    onPayload = async (p) =>
      p.type === 'view_submission' && payloads.filter((x) => x.type === 'view_submission').length === 1
        ? JSON.stringify({ response_action: 'errors', errors: { q1: 'Too short' } })
        : undefined;
    const values = { q1: { a: { type: 'plain_text_input', value: 'ok' } } };
    const rejected = await emu.interactivity.submitView(user, String(surface.view?.id), values);
    expect(rejected.body).toMatchObject({ response_action: 'errors' });
    expect(emu.interactivity.surfaces(user).view).not.toBeNull();
    await emu.interactivity.submitView(user, String(surface.view?.id), {
      q1: { a: { type: 'plain_text_input', value: 'because' } },
    });
    const submission = payloads.filter((p) => p.type === 'view_submission')[1];
    expect(submission).toMatchObject({
      view: { callback_id: 'form', state: { values: { q1: { a: { value: 'because' } } } } },
      user: { id: user },
    });
    expect(emu.interactivity.surfaces(user).view).toBeNull();
  });

  it("Slack's client refuses an empty required input or a text over max_length; untouched inputs arrive as null", async () => {
    const team = emu.team();
    const user = team.ws.members[7]?.id as string;
    const view = emu.interactivity.openView(team.id, user, {
      type: 'modal',
      callback_id: 'checks',
      title: { type: 'plain_text', text: 'Checks' },
      submit: { type: 'plain_text', text: 'Send' },
      blocks: [
        {
          type: 'input',
          block_id: 'must',
          label: { type: 'plain_text', text: 'Required' },
          element: { type: 'plain_text_input', action_id: 'a', max_length: 5 },
        },
        {
          type: 'input',
          block_id: 'pick',
          optional: true,
          label: { type: 'plain_text', text: 'Pick' },
          element: {
            type: 'static_select',
            action_id: 'b',
            options: [{ text: { type: 'plain_text', text: 'One' }, value: '1' }],
          },
        },
        {
          type: 'input',
          block_id: 'note',
          optional: true,
          label: { type: 'plain_text', text: 'Note' },
          element: { type: 'plain_text_input', action_id: 'c' },
        },
      ],
    });
    const before = payloads.length;
    onPayload = async () => undefined;
    const empty = await emu.interactivity.submitView(user, String(view.id), {
      must: { a: { type: 'plain_text_input', value: '' } },
    });
    expect(empty).toEqual({
      status: 0,
      local: true,
      body: { response_action: 'errors', errors: { must: 'Please complete this required field.' } },
    });
    const long = await emu.interactivity.submitView(user, String(view.id), {
      must: { a: { type: 'plain_text_input', value: 'toolong' } },
    });
    expect(long.body).toEqual({
      response_action: 'errors',
      errors: { must: 'Must be 5 characters or fewer.' },
    });
    expect(payloads.length).toBe(before);
    expect(emu.interactivity.surfaces(user).view).not.toBeNull();
    const sent = await emu.interactivity.submitView(user, String(view.id), {
      must: { a: { type: 'plain_text_input', value: 'ok' } },
    });
    await Promise.all(pending);
    expect(sent.status).toBe(200);
    expect(payloads.length).toBe(before + 1);
    expect((payloads.at(-1) as unknown as { view: { state: unknown } }).view.state).toEqual({
      values: {
        must: { a: { type: 'plain_text_input', value: 'ok' } },
        pick: { b: { type: 'static_select', selected_option: null } },
        note: { c: { type: 'plain_text_input', value: null } },
      },
    });
    expect(emu.interactivity.surfaces(user).view).toBeNull();
  });

  it('dialog.open shows a dialog whose submit delivers dialog_submission', async () => {
    const team = emu.team();
    const user = team.ws.members[5]?.id as string;
    const trigger = emu.interactivity.issueTrigger(team.id, user);
    const dialog = {
      title: 'Poll',
      callback_id: 'vote',
      state: 'p1',
      elements: [
        { type: 'select' as const, name: 'choice', label: 'Pick', options: [{ label: 'A', value: 'a' }] },
      ],
    };
    await client.dialog.open({ trigger_id: trigger, dialog });
    await expect(client.dialog.open({ trigger_id: trigger, dialog })).rejects.toMatchObject({
      data: { error: 'trigger_exchanged' },
    });
    expect(emu.interactivity.surfaces(user).dialog?.dialog).toMatchObject({ callback_id: 'vote' });
    onPayload = async () => undefined;
    const r = await emu.interactivity.submitDialog(user, { choice: 'a' });
    expect(r.status).toBe(200);
    expect(payloads[payloads.length - 1]).toMatchObject({
      type: 'dialog_submission',
      callback_id: 'vote',
      state: 'p1',
      submission: { choice: 'a' },
      user: { id: user },
    });
    expect(emu.interactivity.surfaces(user).dialog).toBeNull();
  });

  it('the member page serves and acts through its JSON endpoints', async () => {
    const html = await (await fetch(`${emu.url}/`)).text();
    expect(html).toContain('Slack emulator');
    const team = emu.team();
    const channel = team.channels.all()[0]?.id as string;
    const user = team.channels.members(channel)[1] as string;
    const post = (route: string, body: object) =>
      fetch(`${emu.url}/_ui/api/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ team: team.id, user, ...body }),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const { ts } = await post('post', { channel, text: 'from the page' });
    await post('react', { channel, ts, name: 'one' });
    await post('post', { channel, text: 'a reply', thread_ts: ts });
    const m = team.messages.find(channel, ts as string);
    expect(m).toMatchObject({
      text: 'from the page',
      reply_count: 1,
      reactions: [{ name: 'one', users: [user], count: 1 }],
    });
  });
});
