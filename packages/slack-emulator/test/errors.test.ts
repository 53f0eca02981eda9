import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRaw, emulator, type Emu } from './helpers.ts';

describe('errors answered as Slack does', () => {
  let emu: Emu;
  let bot: string;
  beforeAll(async () => {
    emu = await emulator();
    bot = emu.install(undefined, { scopes: ['chat:write', 'users:read', 'channels:read'] }).botToken;
  });
  afterAll(() => emu.close());

  it('not_authed and invalid_auth', async () => {
    expect((await callRaw(emu, 'auth.test')).body).toEqual({ ok: false, error: 'not_authed' });
    expect((await callRaw(emu, 'auth.test', {}, 'xoxb-nope')).body).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    expect((await callRaw(emu, 'auth.test', { token: bot })).body.ok).toBe(true);
  });

  it('missing_scope with needed and provided', async () => {
    const res = await callRaw(
      emu,
      'reactions.add',
      { channel: 'C0000000000', timestamp: '1.1', name: 'x' },
      bot,
    );
    expect(res.body).toEqual({
      ok: false,
      error: 'missing_scope',
      needed: 'reactions:write',
      provided: 'chat:write,users:read,channels:read',
    });
    expect(res.headers.get('x-accepted-oauth-scopes')).toBe('reactions:write');
  });

  it('channel_not_found, user_not_found, invalid_arguments through the SDK', async () => {
    const client = new WebClient(bot, { slackApiUrl: emu.apiUrl });
    await expect(client.chat.postMessage({ channel: 'C999999999', text: 'x' })).rejects.toMatchObject({
      code: 'slack_webapi_platform_error',
      data: { error: 'channel_not_found' },
    });
    await expect(client.users.info({ user: 'U0000ZZZZZZ' })).rejects.toMatchObject({
      data: { error: 'user_not_found' },
    });
    const missing = await callRaw(emu, 'users.info', {}, bot);
    expect(missing.body).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: ['[ERROR] missing required field: user'] },
    });
    const general = emu.truth().channels()[0]?.id as string;
    await expect(client.chat.postMessage({ channel: general, text: 'x' })).rejects.toMatchObject({
      data: { error: 'not_in_channel' },
    });
    expect((await callRaw(emu, 'chat.postMessage', { channel: general }, bot)).body.error).toBe('no_text');
    expect((await callRaw(emu, 'nope.method', {}, bot)).body.error).toBe('unknown_method');
  });

  it('accepts JSON bodies with the Bearer header', async () => {
    const res = await fetch(`${emu.apiUrl}users.list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bot}` },
      body: JSON.stringify({ limit: 2 }),
    });
    const body = (await res.json()) as { members: unknown[]; response_metadata: { next_cursor: string } };
    expect(body.members).toHaveLength(2);
    expect(body.response_metadata.next_cursor).not.toBe('');
  });

  it('fault injection through the admin endpoint', async () => {
    const client = new WebClient(bot, { slackApiUrl: emu.apiUrl, retryConfig: { retries: 0 } });
    await fetch(`${emu.url}/_admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ http5xxRate: 1, methods: ['users.list'] }),
    });
    await expect(client.users.list({})).rejects.toMatchObject({ code: 'slack_webapi_http_error' });
    expect((await client.auth.test()).ok).toBe(true);
    await fetch(`${emu.url}/_admin/faults`, { method: 'DELETE' });
    emu.queueFault({ kind: 'error', error: 'fatal_error' });
    await expect(client.auth.test()).rejects.toMatchObject({ data: { error: 'fatal_error' } });
    emu.setFaults({ latencyMs: 150 });
    const t = Date.now();
    await client.auth.test();
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    emu.queueFault({ kind: 'drop' });
    emu.clearFaults();
    emu.queueFault({ kind: 'drop' });
    await expect(client.auth.test()).rejects.toBeDefined();
  });
});
