import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInUser, uniqueEmail, waitForMailLink } from '../../testing/factories.ts';
import { installThroughOAuth, ownerOf, slackTestEnv, type SlackTestEnv } from '../../testing/slack.ts';

/*
 * Opened at 127.0.0.1, 'Add to Slack' and the e-mailed links must come back to 127.0.0.1 (not localhost:
 * another origin, where the session is not). PUBLIC_URL wins when set; a foreign Host is never used.
 */

let env: SlackTestEnv;
let withPublicUrl: SlackTestEnv;

beforeAll(async () => {
  const workspaces = { workspaces: [{ seed: 31, members: 5, channels: 2, days: 1 }] };
  [env, withPublicUrl] = await Promise.all([
    slackTestEnv(workspaces, { PUBLIC_URL: '', PORT: '3300', ALLOWED_ORIGINS: 'http://192.168.1.20:3300' }),
    slackTestEnv(workspaces, { PUBLIC_URL: 'https://flywheel.example.com' }),
  ]);
}, 60_000);
afterAll(async () => {
  await env?.close();
  await withPublicUrl?.close();
});

async function redirectUri(e: SlackTestEnv, token: string, headers: Record<string, string>) {
  const res = await e.t.app.inject({
    method: 'GET',
    url: '/api/v0/slack/installurl',
    headers: { ...bearer(token), ...headers },
  });
  expect(res.statusCode).toBe(200);
  return new URL(res.json().url).searchParams.get('redirect_uri');
}

async function signupLink(e: SlackTestEnv, headers: Record<string, string>) {
  const email = uniqueEmail('origin');
  const res = await e.t.app.inject({
    method: 'POST',
    url: '/api/v0/auth/signup',
    headers,
    payload: { email, password: 'correct horse battery', username: 'Origin Test', country: 'Germany' },
  });
  expect(res.statusCode).toBe(201);
  return { email, link: await waitForMailLink(e.t, email, /verify/i) };
}

async function resetLinks(e: SlackTestEnv, email: string): Promise<string[]> {
  const out = await e.t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}` });
  return (out.json().messages as { subject: string; links: string[] }[])
    .filter((m) => /reset/i.test(m.subject))
    .map((m) => m.links[0]!);
}

/** Asks for a reset with these headers; the link of the new mail. */
async function resetLink(e: SlackTestEnv, email: string, headers: Record<string, string>) {
  const before = new Set(await resetLinks(e, email));
  const res = await e.t.app.inject({
    method: 'POST',
    url: '/api/v0/auth/inititatechangepassword',
    headers,
    payload: { email },
  });
  expect(res.statusCode).toBe(200);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const fresh = (await resetLinks(e, email)).filter((l) => !before.has(l));
    if (fresh[0]) return fresh[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no reset mail');
}

describe('links follow the origin the user is on (no PUBLIC_URL)', () => {
  it('Add to Slack: redirect_uri is the page origin, 127.0.0.1 vs localhost; a foreign Host falls back', async () => {
    const user = await signedInUser(env.t);
    expect(await redirectUri(env, user.token, { host: '127.0.0.1:3300' })).toBe(
      'http://127.0.0.1:3300/installworkspace',
    );
    expect(await redirectUri(env, user.token, { host: 'localhost:3300' })).toBe(
      'http://localhost:3300/installworkspace',
    );
    expect(await redirectUri(env, user.token, { referer: 'http://127.0.0.1:3300/dashboard/home' })).toBe(
      'http://127.0.0.1:3300/installworkspace',
    );
    expect(await redirectUri(env, user.token, { host: 'evil.example', origin: 'https://evil.example' })).toBe(
      'http://localhost:3300/installworkspace',
    );
    expect(await redirectUri(env, user.token, { host: '192.168.1.20:3300' })).toBe(
      'http://192.168.1.20:3300/installworkspace',
    );
  });

  it("the bot's image is shown from the origin the page is on; Slack is given the configured address", async () => {
    const user = await signedInUser(env.t);
    expect((await installThroughOAuth(env, user)).statusCode).toBe(200);
    const teamId = env.emu.teamIds[0]!;
    const image = async (host: string) =>
      (
        await env.t.app.inject({
          method: 'GET',
          url: `/api/v0/alterbot/getbotdetails/${teamId}`,
          headers: { ...bearer(user.token), host },
        })
      ).json().data.bot_image;
    expect(await image('127.0.0.1:3300')).toBe('http://127.0.0.1:3300/api/v0/public/flywheel-bot.png');
    expect(await image('localhost:3300')).toBe('http://localhost:3300/api/v0/public/flywheel-bot.png');
    expect(await image('evil.example')).toBe('http://localhost:3300/api/v0/public/flywheel-bot.png');
    expect((await env.t.ctx.services.bot.botIdentity(teamId)).icon_url).toBe(
      'http://localhost:3300/api/v0/public/flywheel-bot.png',
    );
  });

  it('the whole install at 127.0.0.1: Slack sends the user back there and the code exchange matches', async () => {
    const user = await signedInUser(env.t);
    const res = await env.t.app.inject({
      method: 'GET',
      url: '/api/v0/slack/installurl',
      headers: { ...bearer(user.token), host: '127.0.0.1:3300' },
    });
    const authorize = new URL(res.json().url);
    const teamId = env.emu.teamIds[0]!;
    const allow = await fetch(`${env.emu.url}/oauth/v2/authorize`, {
      method: 'POST',
      body: new URLSearchParams({
        ...Object.fromEntries(authorize.searchParams),
        team: teamId,
        installer: ownerOf(env, teamId),
        decision: 'allow',
      }),
      redirect: 'manual',
    });
    const back = new URL(allow.headers.get('location')!);
    expect(back.origin).toBe('http://127.0.0.1:3300');
    expect(back.pathname).toBe('/installworkspace');
    // The page at 127.0.0.1 finishes the install (its fetch carries Origin).
    const done = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/auth-redirect',
      headers: { origin: 'http://127.0.0.1:3300', host: '127.0.0.1:3300' },
      payload: {
        id: user.userid,
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
      },
    });
    expect(done.statusCode, done.body).toBe(200);
  });

  it('Cancel on the authorize page returns to the same origin', async () => {
    const user = await signedInUser(env.t);
    const res = await env.t.app.inject({
      method: 'GET',
      url: '/api/v0/slack/installurl',
      headers: { ...bearer(user.token), host: '127.0.0.1:3300' },
    });
    const authorize = new URL(res.json().url);
    const cancel = await fetch(`${env.emu.url}/oauth/v2/authorize`, {
      method: 'POST',
      body: new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), decision: 'cancel' }),
      redirect: 'manual',
    });
    expect(new URL(cancel.headers.get('location')!).origin).toBe('http://127.0.0.1:3300');
  });

  it('verification and reset mails link to the origin asked from; a foreign Host gets the default', async () => {
    const at127 = await signupLink(env, { host: '127.0.0.1:3300', origin: 'http://127.0.0.1:3300' });
    expect(at127.link).toMatch(/^http:\/\/127\.0\.0\.1:3300\/auth\/verify-email\?token=/);
    const atLocalhost = await signupLink(env, { host: 'localhost:3300', origin: 'http://localhost:3300' });
    expect(atLocalhost.link).toMatch(/^http:\/\/localhost:3300\/auth\/verify-email\?token=/);
    const injected = await signupLink(env, { host: 'evil.example', origin: 'https://evil.example' });
    expect(injected.link).toMatch(/^http:\/\/localhost:3300\/auth\/verify-email\?token=/);

    expect(
      await resetLink(env, at127.email, { host: '127.0.0.1:3300', origin: 'http://127.0.0.1:3300' }),
    ).toMatch(/^http:\/\/127\.0\.0\.1:3300\/auth\/reset-password\?token=/);
    expect(
      await resetLink(env, at127.email, { host: 'evil.example', 'x-forwarded-host': 'evil.example' }),
    ).toMatch(/^http:\/\/localhost:3300\/auth\/reset-password\?token=/);
  });
});

describe('PUBLIC_URL wins', () => {
  it('for the Slack redirect and e-mailed links, whatever the request says', async () => {
    const user = await signedInUser(withPublicUrl.t);
    expect(await redirectUri(withPublicUrl, user.token, { host: '127.0.0.1:3000' })).toBe(
      'https://flywheel.example.com/installworkspace',
    );
    const { link } = await signupLink(withPublicUrl, {
      host: '127.0.0.1:3000',
      origin: 'http://127.0.0.1:3000',
    });
    expect(link).toMatch(/^https:\/\/flywheel\.example\.com\/auth\/verify-email\?token=/);
  });
});
