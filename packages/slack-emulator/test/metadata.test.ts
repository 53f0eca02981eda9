import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRaw, emulator, type Emu } from './helpers.ts';

/** Message metadata as Slack documents it: posted with chat.postMessage, read back with include_all_metadata. */
describe('message metadata', () => {
  let emu: Emu;
  let bot: string;
  let member: string;
  beforeAll(async () => {
    emu = await emulator();
    bot = emu.install(undefined, {
      scopes: ['chat:write', 'im:write', 'im:history', 'channels:history', 'channels:join', 'users:read'],
    }).botToken;
    const users = await new WebClient(bot, { slackApiUrl: emu.apiUrl }).users.list({});
    member = users.members!.find((u) => !u.is_bot && !u.deleted && u.id !== 'USLACKBOT')!.id!;
  });
  afterAll(() => emu.close());

  const metadata = { event_type: 'flywheel_delivery', event_payload: { recipient: 42, attempt: 1 } };

  it('a DM posted through the SDK carries its metadata; history returns it only when asked', async () => {
    const client = new WebClient(bot, { slackApiUrl: emu.apiUrl });
    const posted = await client.chat.postMessage({ channel: member, text: 'hello', metadata });
    expect(posted.ok).toBe(true);
    const plain = await client.conversations.history({ channel: posted.channel! });
    expect(plain.messages!.find((m) => m.ts === posted.ts)).not.toHaveProperty('metadata');
    const withMeta = await client.conversations.history({
      channel: posted.channel!,
      include_all_metadata: true,
    });
    expect(withMeta.messages!.find((m) => m.ts === posted.ts)?.metadata).toEqual(metadata);
  });

  it('thread replies keep metadata too (conversations.replies)', async () => {
    const client = new WebClient(bot, { slackApiUrl: emu.apiUrl });
    const parent = await client.chat.postMessage({ channel: member, text: 'parent' });
    const reply = await client.chat.postMessage({
      channel: parent.channel!,
      thread_ts: parent.ts!,
      text: 'reply',
      metadata,
    });
    const replies = await client.conversations.replies({
      channel: parent.channel!,
      ts: parent.ts!,
      include_all_metadata: true,
    });
    expect(replies.messages!.find((m) => m.ts === reply.ts)?.metadata).toEqual(metadata);
  });

  it('malformed metadata is refused as Slack does', async () => {
    const bad = await callRaw(
      emu,
      'chat.postMessage',
      { channel: member, text: 'x', metadata: '{nope' },
      bot,
    );
    expect(bad.body).toEqual({ ok: false, error: 'invalid_metadata_format' });
    const shape = await callRaw(
      emu,
      'chat.postMessage',
      { channel: member, text: 'x', metadata: { event_type: 'ok', event_payload: 'not an object' } },
      bot,
    );
    expect(shape.body).toEqual({ ok: false, error: 'invalid_metadata_schema' });
  });

  it('rate-based 429s are not applied; a lost answer is applied but never reaches the caller', async () => {
    const client = new WebClient(bot, {
      slackApiUrl: emu.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    const countOf = async (text: string) => {
      let n = 0;
      for await (const m of emu.truth().messages()) if (m.text === text) n++;
      return n;
    };
    emu.setFaults({ ratelimitedRate: 1, retryAfterSeconds: 7, methods: ['chat.postMessage'] });
    await expect(client.chat.postMessage({ channel: member, text: 'limited' })).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: 7,
    });
    expect(await countOf('limited')).toBe(0);
    emu.setFaults({ lostAnswerRate: 1, methods: ['chat.postMessage'] });
    for (let i = 0; i < 4; i++)
      await expect(client.chat.postMessage({ channel: member, text: 'lost answer' })).rejects.toBeDefined();
    expect(await countOf('lost answer')).toBe(4);
    emu.clearFaults();
  });
});
