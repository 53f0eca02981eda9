import { verifySlackRequest } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest, verifySignature } from '../src/index.ts';
import { callRaw, emulator, receiver, type Emu } from './helpers.ts';
import { loadWebApiSchemas } from './schemas.ts';

const schemas = loadWebApiSchemas();
let emu: Emu;
let bot: string;
let user: string;
let channel: string;
let events: Awaited<ReturnType<typeof receiver>>;

/** Calls a method, expects ok:true and validates the raw body against the spec's 200 schema. */
async function conform(method: string, args: Record<string, unknown> = {}, token = bot) {
  const { status, body } = await callRaw(emu, method, args, token);
  expect(status).toBe(200);
  expect(body, `${method} -> ${JSON.stringify(body).slice(0, 300)}`).toMatchObject({ ok: true });
  const validate = schemas.forMethod(method);
  if (validate) {
    const valid = validate(body);
    expect(valid, `${method}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
  }
  return { body, checked: !!validate };
}

beforeAll(async () => {
  events = await receiver();
  emu = await emulator({ eventsUrl: events.url });
  const install = emu.install();
  bot = install.botToken;
  user = install.userToken as string;
  channel = emu
    .truth()
    .channels()
    .find((c) => c.name === 'random')?.id as string;
});
afterAll(async () => {
  await emu.close();
  await events.close();
});

describe('Web API responses match the OpenAPI schemas', () => {
  it('rejects an invalid body with the schema (the validator can fail)', () => {
    const v = schemas.forMethod('chat.postMessage');
    expect(v?.({ ok: true, channel: 'C123', ts: 'nope', message: {} })).toBe(false);
    expect(schemas.forMethod('users.info')?.({ ok: true, user: { id: 'U1', name: 'x' } })).toBe(false);
  });

  it('auth, team, users and bots', async () => {
    expect((await conform('auth.test')).checked).toBe(true);
    await conform('auth.test', {}, user);
    await conform('team.info');
    const list = await conform('users.list', { limit: 50 });
    const member = (list.body.members as { id: string; profile: { email: string } }[])[3];
    await conform('users.info', { user: member?.id });
    await conform('users.lookupByEmail', { email: member?.profile.email });
    await conform('users.profile.get', { user: member?.id });
    await conform('bots.info', { bot: emu.truth().install()?.botId });
  });

  it('conversations', async () => {
    await conform('conversations.list', { types: 'public_channel,private_channel', limit: 100 });
    await conform('conversations.join', { channel });
    await conform('conversations.join', { channel }); // already_in_channel warning shape
    await conform('conversations.info', { channel });
    await conform('conversations.members', { channel, limit: 20 });
    const history = await conform('conversations.history', { channel, limit: 200 });
    const messages = history.body.messages as { ts: string; reply_count?: number }[];
    const parent = messages.find((m) => (m.reply_count ?? 0) > 1);
    expect(parent).toBeDefined();
    await conform('conversations.replies', { channel, ts: parent?.ts });
    const someone = emu
      .truth()
      .channels()
      .find((c) => c.id === channel)?.members as string[];
    await conform('conversations.open', { users: someone[0] });
    await conform('conversations.open', { users: someone[0], return_im: true });
  });

  it('chat, reactions and pins', async () => {
    const blocks = [
      {
        type: 'actions',
        elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' } }],
      },
    ];
    const posted = await conform('chat.postMessage', { channel, text: 'hello', blocks });
    const ts = posted.body.ts as string;
    await conform('chat.postMessage', {
      channel,
      text: 'in thread',
      thread_ts: ts,
      username: 'Poll bot',
      icon_emoji: ':bar_chart:',
    });
    await conform('chat.postMessage', { channel, text: 'as the admin' }, user);
    await conform('chat.update', { channel, ts, text: 'edited', blocks });
    await conform('chat.getPermalink', { channel, message_ts: ts });
    // An ephemeral message: shown to one member of the conversation, never in its history.
    const member = emu
      .team()
      .channels.members(channel)
      .find((m) => m !== emu.truth().install()?.botUserId);
    const eph = await conform('chat.postEphemeral', { channel, user: member, text: 'only for you' });
    expect(eph.body.message_ts).toMatch(/^\d+\.\d+$/);
    expect(emu.interactivity.ephemerals(emu.team().id, member as string)).toEqual([
      expect.objectContaining({ channel, text: 'only for you', ts: eph.body.message_ts }),
    ]);
    const outsider = [...emu.truth().members()].find(
      (m) => !m.is_bot && !emu.team().channels.isMember(channel, m.id),
    )?.id;
    expect(
      (await callRaw(emu, 'chat.postEphemeral', { channel, user: outsider, text: 'x' }, bot)).body,
    ).toMatchObject({ ok: false, error: 'user_not_in_channel' });
    expect(
      (await callRaw(emu, 'chat.postEphemeral', { channel, user: 'UNOBODY01', text: 'x' }, bot)).body,
    ).toMatchObject({ ok: false, error: 'user_not_found' });
    await conform('reactions.add', { channel, timestamp: ts, name: 'tada' });
    await conform('reactions.get', { channel, timestamp: ts });
    await conform('reactions.remove', { channel, timestamp: ts, name: 'tada' });
    await conform('pins.add', { channel, timestamp: ts });
    const pinned = await conform('conversations.history', { channel, limit: 20 });
    const find = (b: Record<string, unknown>) =>
      (b.messages as { ts: string; pinned_to?: string[] }[]).find((m) => m.ts === ts);
    expect(find(pinned.body)?.pinned_to).toEqual([channel]);
    await conform('pins.remove', { channel, timestamp: ts });
    const unpinned = await conform('conversations.history', { channel, limit: 20 });
    expect(find(unpinned.body)?.pinned_to).toBeUndefined();
    await conform('chat.scheduleMessage', {
      channel,
      text: 'later',
      post_at: Math.floor(Date.now() / 1000) + 3600,
    });
    await conform('conversations.replies', { channel, ts });
    await conform('conversations.history', { channel, limit: 5 });
    await conform('chat.delete', { channel, ts });
  });

  it('views, dialogs and uninstall', async () => {
    const team = emu.truth().team.id;
    const member = emu
      .truth()
      .channels()
      .find((c) => c.id === channel)?.members as string[];
    const view = { type: 'modal', title: { type: 'plain_text', text: 'Form' }, blocks: [] };
    const t1 = emu.interactivity.issueTrigger(team, member[0] as string);
    const opened = await conform('views.open', { trigger_id: t1, view });
    expect(opened.body.view).toMatchObject({ type: 'modal', id: expect.stringMatching(/^V/) });
    const t2 = emu.interactivity.issueTrigger(team, member[0] as string);
    const dialog = { title: 'Poll', callback_id: 'cb', elements: [{ type: 'text', name: 'a', label: 'A' }] };
    await conform('dialog.open', { trigger_id: t2, dialog });
    await conform('apps.uninstall', { client_id: emu.app.clientId, client_secret: emu.app.clientSecret });
  });
});

describe('Event envelopes match the events wrapper schema', () => {
  it('every delivered envelope validates', async () => {
    await emu.eventsIdle();
    const bodies = events.received
      .map((r) => JSON.parse(r.body) as Record<string, unknown>)
      .filter((b) => b.type === 'event_callback');
    const types = new Set(bodies.map((b) => (b.event as { type: string }).type));
    expect([...types]).toEqual(
      expect.arrayContaining([
        'message',
        'reaction_added',
        'reaction_removed',
        'member_joined_channel',
        'app_uninstalled',
        'tokens_revoked',
      ]),
    );
    for (const b of bodies) {
      expect(schemas.eventWrapper(b), JSON.stringify(schemas.eventWrapper.errors)).toBe(true);
    }
    expect(schemas.eventWrapper({ type: 'event_callback', event: { type: 'message' } })).toBe(false);
  });
});

describe("Slack's published signing test vector", () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const timestamp = 1531420618;
  const body =
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
  const signature = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';

  it('is reproduced by the emulator signer', () => {
    expect(Buffer.byteLength(body)).toBe(362);
    expect(signRequest(secret, timestamp, body)).toBe(signature);
    expect(signRequest('secret', timestamp, '{"foo":"bar"}')).toBe(
      'v0=bb5bc143e1afa37151ea6887f794287bcfad6113bb7596ffca6ec599ecbdc216',
    );
    expect(
      verifySignature({ signingSecret: secret, timestamp, signature, body, nowSeconds: timestamp + 10 }),
    ).toBe(true);
    expect(
      verifySignature({ signingSecret: secret, timestamp, signature, body, nowSeconds: timestamp + 301 }),
    ).toBe(false);
  });

  it("is accepted by @slack/bolt's verifySlackRequest, and a signature from our signer too", () => {
    const headers = { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp };
    const realNow = Date.now;
    Date.now = () => timestamp * 1000;
    try {
      expect(() => verifySlackRequest({ signingSecret: secret, body, headers })).not.toThrow();
      const ours = signRequest('other-secret', timestamp, '{"a":1}');
      expect(() =>
        verifySlackRequest({
          signingSecret: 'other-secret',
          body: '{"a":1}',
          headers: { 'x-slack-signature': ours, 'x-slack-request-timestamp': timestamp },
        }),
      ).not.toThrow();
      expect(() => verifySlackRequest({ signingSecret: 'wrong', body, headers })).toThrow();
    } finally {
      Date.now = realNow;
    }
  });

  it('signs delivered events so that Bolt accepts them', async () => {
    const delivered = events.received.find((r) => r.body.includes('event_callback'));
    expect(delivered).toBeDefined();
    const headers = {
      'x-slack-signature': String(delivered?.headers['x-slack-signature']),
      'x-slack-request-timestamp': Number(delivered?.headers['x-slack-request-timestamp']),
    };
    expect(() =>
      verifySlackRequest({ signingSecret: emu.app.signingSecret, body: delivered?.body as string, headers }),
    ).not.toThrow();
  });
});
