import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulator, type Emu } from './helpers.ts';

let now = Date.now();
let emu: Emu;
beforeAll(async () => {
  emu = await emulator({
    workspaces: [
      { seed: 1, members: 40, channels: 4, days: 5 },
      { seed: 2, members: 30, channels: 3, days: 5 },
    ],
    clock: () => now,
    oauthCodeTtlMs: 600_000,
  });
});
afterAll(() => emu.close());

const authorize = (extra: Record<string, string> = {}) =>
  new URLSearchParams({
    client_id: emu.app.clientId,
    scope: 'chat:write,channels:history,users:read',
    user_scope: 'chat:write',
    state: 's-123',
    redirect_uri: 'http://localhost:9/cb',
    ...extra,
  });

async function decide(decision: 'allow' | 'cancel', extra: Record<string, string> = {}) {
  const body = authorize({ decision, ...extra });
  const res = await fetch(emu.authorizeUrl, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') as string);
}

describe('OAuth v2', () => {
  it('shows the app, bot scopes and user scopes with Allow and Cancel', async () => {
    const res = await fetch(`${emu.authorizeUrl}?${authorize()}`);
    const html = await res.text();
    expect(res.status).toBe(200);
    for (const text of [
      'Flywheel',
      'chat:write',
      'channels:history',
      'users:read',
      'user scopes',
      '>Allow<',
      '>Cancel<',
    ])
      expect(html).toContain(text);
    const bad = await fetch(`${emu.authorizeUrl}?${authorize({ client_id: 'nope' })}`);
    expect(bad.status).toBe(400);
  });

  it('Cancel redirects with error=access_denied and the state', async () => {
    const to = await decide('cancel');
    expect(`${to.origin}${to.pathname}`).toBe('http://localhost:9/cb');
    expect(Object.fromEntries(to.searchParams)).toEqual({ error: 'access_denied', state: 's-123' });
  });

  it('Allow redirects with a code that oauth.v2.access exchanges once for bot and user tokens', async () => {
    const team = emu.teamIds[1] as string;
    const to = await decide('allow', { team });
    expect(to.searchParams.get('state')).toBe('s-123');
    const code = to.searchParams.get('code') as string;
    const client = new WebClient(undefined, { slackApiUrl: emu.apiUrl });
    const args = {
      code,
      client_id: emu.app.clientId,
      client_secret: emu.app.clientSecret,
      redirect_uri: 'http://localhost:9/cb',
    };
    const res = await client.oauth.v2.access(args);
    expect(res).toMatchObject({
      ok: true,
      token_type: 'bot',
      team: { id: team },
      authed_user: { token_type: 'user', scope: 'chat:write' },
      enterprise: null,
    });
    expect(res.access_token).toMatch(/^xoxb-/);
    expect(res.authed_user?.access_token).toMatch(/^xoxp-/);
    const who = await new WebClient(res.access_token, { slackApiUrl: emu.apiUrl }).auth.test();
    expect(who).toMatchObject({
      team_id: team,
      user_id: res.bot_user_id,
      bot_id: expect.stringMatching(/^B/),
    });
    await expect(client.oauth.v2.access(args)).rejects.toMatchObject({ data: { error: 'invalid_code' } });
    await expect(client.oauth.v2.access({ ...args, client_secret: 'x' })).rejects.toMatchObject({
      data: { error: 'bad_client_secret' },
    });
  });

  it('codes expire and must match the redirect_uri', async () => {
    const client = new WebClient(undefined, { slackApiUrl: emu.apiUrl });
    const code = (await decide('allow')).searchParams.get('code') as string;
    const creds = { client_id: emu.app.clientId, client_secret: emu.app.clientSecret };
    await expect(
      client.oauth.v2.access({ ...creds, code, redirect_uri: 'http://evil/cb' }),
    ).rejects.toMatchObject({ data: { error: 'bad_redirect_uri' } });
    const late = (await decide('allow')).searchParams.get('code') as string;
    now += 601_000;
    await expect(client.oauth.v2.access({ ...creds, code: late })).rejects.toMatchObject({
      data: { error: 'invalid_code' },
    });
    const basic = Buffer.from(`${emu.app.clientId}:${emu.app.clientSecret}`).toString('base64');
    const fresh = (await decide('allow')).searchParams.get('code') as string;
    const res = await fetch(`${emu.apiUrl}oauth.v2.access`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `code=${fresh}`,
    });
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  });
});
