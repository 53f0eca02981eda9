import { WebClient, type OauthV2AccessResponse } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulator, type Emu } from './helpers.ts';

/**
 * Token rotation as Slack documents it ("Using token rotation"): an install answers expiring `xoxe.` access
 * tokens with a refresh token and `expires_in`, for the bot and for the authorizing user; oauth.v2.access with
 * grant_type=refresh_token exchanges a refresh token once for a new pair; an expired token answers token_expired
 * on every method. Checked through the official @slack/web-api client.
 */
let now = Date.now();
let emu: Emu;
const platformError = (err: unknown) => (err as { data?: { error?: string } }).data?.error;

beforeAll(async () => {
  emu = await emulator({
    workspace: { seed: 7, members: 20, channels: 3, days: 2 },
    clock: () => now,
    tokenRotation: { expiresInSeconds: 600 },
  });
});
afterAll(() => emu.close());

async function installWithCode(): Promise<OauthV2AccessResponse> {
  const team = emu.teamIds[0]!;
  const owner = emu.team(team).ws.members.find((m) => m.isPrimaryOwner)!.id;
  const form = new URLSearchParams({
    client_id: emu.app.clientId,
    scope: 'chat:write,users:read,im:write',
    user_scope: 'chat:write',
    state: 's',
    redirect_uri: 'http://localhost:9/cb',
    decision: 'allow',
    team,
    installer: owner,
  });
  const res = await fetch(emu.authorizeUrl, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  return new WebClient(undefined, { slackApiUrl: emu.apiUrl }).oauth.v2.access({
    client_id: emu.app.clientId,
    client_secret: emu.app.clientSecret,
    code,
    redirect_uri: 'http://localhost:9/cb',
  });
}

const refresh = (refreshToken: string) =>
  new WebClient(undefined, { slackApiUrl: emu.apiUrl, retryConfig: { retries: 0 } }).oauth.v2.access({
    client_id: emu.app.clientId,
    client_secret: emu.app.clientSecret,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });

describe('token rotation', () => {
  it('an install answers expiring bot and user tokens with refresh tokens and expires_in', async () => {
    const access = await installWithCode();
    expect(access.ok).toBe(true);
    expect(access.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(access.refresh_token).toMatch(/^xoxe-1-/);
    expect(access.expires_in).toBe(600);
    expect(access.token_type).toBe('bot');
    expect(access.authed_user?.access_token).toMatch(/^xoxe\.xoxp-/);
    expect(access.authed_user?.refresh_token).toMatch(/^xoxe-1-/);
    expect(access.authed_user?.expires_in).toBe(600);
    const bot = new WebClient(access.access_token, { slackApiUrl: emu.apiUrl });
    expect((await bot.auth.test()).ok).toBe(true);
  });

  it('an expired token answers token_expired on every method; a refresh gives a new pair, once', async () => {
    const access = await installWithCode();
    const old = new WebClient(access.access_token, { slackApiUrl: emu.apiUrl, retryConfig: { retries: 0 } });
    now += 601_000;
    for (const call of [() => old.auth.test(), () => old.users.list({}), () => old.team.info()])
      await expect(call().catch(platformError)).resolves.toBe('token_expired');

    const renewed = await refresh(access.refresh_token!);
    expect(renewed).toMatchObject({ ok: true, token_type: 'bot', expires_in: 600 });
    expect(renewed.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(renewed.access_token).not.toBe(access.access_token);
    expect(renewed.refresh_token).toMatch(/^xoxe-1-/);
    expect(renewed.refresh_token).not.toBe(access.refresh_token);
    const fresh = new WebClient(renewed.access_token, { slackApiUrl: emu.apiUrl });
    expect((await fresh.auth.test()).ok).toBe(true);
    // The install's ground truth follows the newest bot token.
    expect(emu.truth().install()?.botToken).toBe(renewed.access_token);

    // A refresh token works once.
    await expect(refresh(access.refresh_token!).catch(platformError)).resolves.toBe('invalid_refresh_token');
    await expect(refresh('xoxe-1-nonsense').catch(platformError)).resolves.toBe('invalid_refresh_token');
    // The user's refresh token renews the user token.
    const user = await refresh(access.authed_user!.refresh_token!);
    expect(user).toMatchObject({ ok: true, token_type: 'user' });
    expect(user.access_token).toMatch(/^xoxe\.xoxp-/);
    const asUser = await new WebClient(user.access_token, { slackApiUrl: emu.apiUrl }).auth.test();
    expect(asUser.user_id).toBe(access.authed_user!.id);
  });

  it('the old access token keeps working until it expires after a refresh; expireTokens ends it now', async () => {
    const access = await installWithCode();
    const renewed = await refresh(access.refresh_token!);
    const old = new WebClient(access.access_token, { slackApiUrl: emu.apiUrl, retryConfig: { retries: 0 } });
    expect((await old.auth.test()).ok).toBe(true);
    expect(emu.expireTokens()).toBeGreaterThan(0);
    await expect(old.auth.test().catch(platformError)).resolves.toBe('token_expired');
    const fresh = new WebClient(renewed.access_token, {
      slackApiUrl: emu.apiUrl,
      retryConfig: { retries: 0 },
    });
    await expect(fresh.auth.test().catch(platformError)).resolves.toBe('token_expired');
  });

  it('a refresh needs the app credentials; rotation off issues tokens that never expire', async () => {
    const access = await installWithCode();
    const wrong = new WebClient(undefined, { slackApiUrl: emu.apiUrl, retryConfig: { retries: 0 } });
    const bad = await wrong.oauth.v2
      .access({
        client_id: emu.app.clientId,
        client_secret: 'wrong',
        grant_type: 'refresh_token',
        refresh_token: access.refresh_token!,
      })
      .catch(platformError);
    expect(bad).toBe('bad_client_secret');
    emu.setTokenRotation(undefined);
    try {
      const plain = await installWithCode();
      expect(plain.access_token).toMatch(/^xoxb-/);
      expect(plain.refresh_token).toBeUndefined();
      expect(plain.expires_in).toBeUndefined();
      now += 10 * 86_400_000;
      expect((await new WebClient(plain.access_token, { slackApiUrl: emu.apiUrl }).auth.test()).ok).toBe(
        true,
      );
    } finally {
      emu.setTokenRotation({ expiresInSeconds: 600 });
    }
  });
});
