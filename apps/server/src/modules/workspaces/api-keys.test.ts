import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse } from '@flywheel/shared/auth';
import { API_KEY_RATE } from '@flywheel/shared/roles';
import { apiKeyHash } from './service.ts';
import { bearer, signedInUser, uniqueEmail } from '../../testing/factories.ts';
import { installThroughOAuth, slackTestEnv, type SlackTestEnv } from '../../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

type Person = LoginResponse & { password: string };

let env: SlackTestEnv;
let owner: Person;
let other: Person;
let teamA: string;
let teamB: string;

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  env.t.app.inject({ method, url, payload, headers: bearer(token) });

async function createKey(who: Person, scope: 'read' | 'act', name = `${scope} key`) {
  const res = await call(who.token, 'POST', '/api/v0/apikeys/create', { team_id: teamA, name, scope });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { key: { id: string; prefix: string; scope: string }; secret: string };
}

const analytics = () => `/api/v0/analytics/getanalyticscompare/${teamA}/7`;
const send = () => ['POST', '/api/v0/quickaction/sendmessage', { team_id: teamA }] as const;

beforeAll(async () => {
  env = await slackTestEnv({
    workspaces: [
      { seed: 6, members: 20, channels: 3, days: 3 },
      { seed: 7, members: 20, channels: 3, days: 3 },
    ],
  });
  [teamA, teamB] = env.emu.teamIds as [string, string];
  owner = await signedInUser(env.t);
  other = await signedInUser(env.t);
  expect((await installThroughOAuth(env, owner, { teamId: teamA })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, owner, { teamId: teamB })).statusCode).toBe(200);
}, 240_000);
afterAll(() => env.close());

describe('API keys', () => {
  it('are shown once, stored hashed, listed without their secret', async () => {
    const { key, secret } = await createKey(owner, 'read', 'Reporting');
    expect(secret).toMatch(/^fwk_[A-Za-z0-9_-]{40,}$/);
    expect(secret.startsWith(key.prefix)).toBe(true);
    const list = await call(owner.token, 'GET', `/api/v0/apikeys/${teamA}`);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret);
    expect(list.json().data).toContainEqual(
      expect.objectContaining({ id: key.id, name: 'Reporting', scope: 'read', created_by: owner.email }),
    );
    const rows = await env.t.ctx.database.db.execute(
      sql`select key_hash from workspace_api_keys where id = ${key.id}`,
    );
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(secret);
    expect(stored).toContain(apiKeyHash(secret));
  });

  it('a read key gets 200 on analytics and 403 on a send; an act key passes the role check on a send', async () => {
    const read = await createKey(owner, 'read');
    expect((await call(read.secret, 'GET', analytics())).statusCode).toBe(200);
    const refused = await call(read.secret, ...send());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/read scope/) });
    const act = await createKey(owner, 'act');
    expect((await call(act.secret, 'GET', analytics())).statusCode).toBe(200);
    // Past the role check: the send's own validation answers (its body is incomplete).
    expect((await call(act.secret, ...send())).statusCode).toBe(400);
  });

  it('never manages the workspace, even an act key of an Owner', async () => {
    const act = await createKey(owner, 'act');
    for (const [url, payload] of [
      ['/api/v0/apikeys/create', { team_id: teamA, name: 'x', scope: 'act' }],
      ['/api/v0/workspaces/inviteadmin', { team_id: teamA, email: uniqueEmail() }],
      ['/api/v0/workspaces/setrole', { team_id: teamA, user_id: owner.userid, role: 'viewer' }],
    ] as const) {
      const res = await call(act.secret, 'POST', url, payload);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
  });

  it('works for its own workspace only, and never on account routes', async () => {
    const act = await createKey(owner, 'act');
    // The Owner administers both workspaces; the key is teamA's.
    const elsewhere = await call(act.secret, 'GET', `/api/v0/analytics/getanalyticscompare/${teamB}/7`);
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().code).toBe('FORBIDDEN');
    expect((await call(act.secret, 'GET', '/api/v0/auth/me')).statusCode).toBe(401);
    expect((await call(act.secret, 'POST', '/api/v0/auth/algoliatoken', { team_id: teamA })).statusCode).toBe(
      401,
    );
    expect((await call(act.secret, 'GET', `/api/v0/slack/installurl?team_id=${teamA}`)).statusCode).toBe(401);
  });

  it('a revoked or unknown key answers 401; revoking is the Owner’s', async () => {
    const { key, secret } = await createKey(owner, 'read');
    expect((await call(secret, 'GET', analytics())).statusCode).toBe(200);
    const revoke = await call(owner.token, 'POST', '/api/v0/apikeys/revoke', { team_id: teamA, id: key.id });
    expect(revoke.statusCode).toBe(200);
    const after = await call(secret, 'GET', analytics());
    expect(after.statusCode).toBe(401);
    expect((await call(`${secret}x`, 'GET', analytics())).statusCode).toBe(401);
    expect((await call('fwk_unknown', 'GET', analytics())).statusCode).toBe(401);
    const list = (await call(owner.token, 'GET', `/api/v0/apikeys/${teamA}`)).json();
    expect(list.data.map((k: any) => k.id)).not.toContain(key.id);
    expect(
      (await call(owner.token, 'POST', '/api/v0/apikeys/revoke', { team_id: teamA, id: key.id })).statusCode,
    ).toBe(404);
  });

  it('records when a key was last used', async () => {
    const { key, secret } = await createKey(owner, 'read');
    const before = (await call(owner.token, 'GET', `/api/v0/apikeys/${teamA}`)).json();
    expect(before.data.find((k: any) => k.id === key.id).last_used_at).toBeNull();
    await call(secret, 'GET', analytics());
    const after = (await call(owner.token, 'GET', `/api/v0/apikeys/${teamA}`)).json();
    expect(Date.parse(after.data.find((k: any) => k.id === key.id).last_used_at)).toBeGreaterThan(
      Date.now() - 60_000,
    );
  });

  it(`is rate-limited per key: ${API_KEY_RATE.burst} at once, then 429 with Retry-After`, async () => {
    const a = await createKey(owner, 'read');
    const b = await createKey(owner, 'read');
    const url = `/api/v0/workspaces/status/${teamA}`;
    // The bucket refills as the calls go (1 a second): call until it is empty, the burst at least.
    let limited = await call(a.secret, 'GET', url);
    let allowed = 0;
    for (; limited.statusCode === 200 && allowed < 3 * API_KEY_RATE.burst; allowed++)
      limited = await call(a.secret, 'GET', url);
    expect(allowed).toBeGreaterThanOrEqual(API_KEY_RATE.burst);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many requests with this API key/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another key, and the Owner's own login, are not limited by it.
    expect((await call(b.secret, 'GET', url)).statusCode).toBe(200);
    expect((await call(owner.token, 'GET', url)).statusCode).toBe(200);
  });

  it('acts on behalf of its creator: capped by their role, stopped when they lose the workspace', async () => {
    const email = uniqueEmail('second-owner');
    await call(owner.token, 'POST', '/api/v0/workspaces/inviteadmin', {
      team_id: teamA,
      email,
      role: 'owner',
    });
    const second = await signedInUser(env.t, { email });
    const act = await createKey(second, 'act');
    expect((await call(act.secret, ...send())).statusCode).toBe(400);
    await call(owner.token, 'POST', '/api/v0/workspaces/setrole', {
      team_id: teamA,
      user_id: second.userid,
      role: 'viewer',
    });
    expect((await call(act.secret, ...send())).statusCode).toBe(403);
    expect((await call(act.secret, 'GET', analytics())).statusCode).toBe(200);
    await call(owner.token, 'POST', '/api/v0/workspaces/removeadmin', {
      team_id: teamA,
      user_id: second.userid,
    });
    expect((await call(act.secret, 'GET', analytics())).statusCode).toBe(403);
  });

  it('is refused to a stranger: another account cannot list or create keys of the workspace', async () => {
    expect((await call(other.token, 'GET', `/api/v0/apikeys/${teamA}`)).statusCode).toBe(403);
    expect(
      (
        await call(other.token, 'POST', '/api/v0/apikeys/create', {
          team_id: teamA,
          name: 'x',
          scope: 'read',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('the OpenAPI document describes the key with an example, on the routes that take it', async () => {
    const doc = (await env.t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.info.description).toContain('Authorization: Bearer fwk_');
    expect(doc.paths['/api/v0/analytics/getanalyticscompare/{teamId}/{days}'].get.security).toContainEqual({
      apiKey: [],
    });
    expect(doc.paths['/api/v0/apikeys/create'].post.security).toEqual([{ bearer: [] }]);
  });
});
