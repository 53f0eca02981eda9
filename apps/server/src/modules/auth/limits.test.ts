import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typedRows } from '../../db/sql.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { signedInUser, tokenOf, uniqueEmail, waitForMailLink } from '../../testing/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ LOGIN_MAX_PER_EMAIL: '3', LOGIN_MAX_PER_IP: '8' });
});
afterAll(() => t.close());

const login = (email: string, password: string, ip = '203.0.113.7') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v0/auth/login',
    payload: { email, password },
    remoteAddress: ip,
  });

describe('login rate limits', () => {
  it('locks an e-mail at the address the failures came from, even for the right password, with Retry-After', async () => {
    const user = await signedInUser(t);
    const stranger = '198.51.100.7';
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, 'wrong-password', stranger)).statusCode).toBe(401);
    const locked = await login(user.email, user.password, stranger);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('TOO_MANY_ATTEMPTS');
    expect(locked.json().message).toMatch(/Too many login attempts\. Please wait \d+ minutes? and try again/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, elsewhere, is not locked out by the stranger.
    expect((await login(user.email, user.password, '198.51.100.99')).statusCode).toBe(200);
  });

  it('a success clears the e-mail count', async () => {
    const user = await signedInUser(t);
    const ip = '198.51.100.200';
    for (let i = 0; i < 2; i++) await login(user.email, 'wrong-password', ip);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await login(user.email, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
  });

  it('locks an address trying many e-mails', async () => {
    const ip = '203.0.113.50';
    for (let i = 0; i < 8; i++)
      expect((await login(uniqueEmail('spray'), 'whatever1', ip)).statusCode).toBe(401);
    expect((await login(uniqueEmail('spray'), 'whatever1', ip)).statusCode).toBe(429);
    // Another address is not affected.
    expect((await login(uniqueEmail('spray'), 'whatever1', '203.0.113.51')).statusCode).toBe(401);
  });

  const fillAddress = async (ip: string) => {
    for (let i = 0; i < 8; i++)
      expect((await login(uniqueEmail('spray'), 'whatever1', ip)).statusCode).toBe(401);
    expect((await login(uniqueEmail('spray'), 'whatever1', ip)).statusCode).toBe(429);
  };
  const post = (url: string, payload: object, ip: string) =>
    t.app.inject({ method: 'POST', url: `/api/v0${url}`, payload, remoteAddress: ip });

  it("other accounts' failures at an address do not lock out someone who logged in there; their own guesses stay bounded, in parallel too", async () => {
    const user = await signedInUser(t);
    const office = '192.0.2.10';
    expect((await login(user.email, user.password, office)).statusCode).toBe(200);
    await fillAddress(office);
    expect((await login(user.email, user.password, office)).statusCode).toBe(200);
    // Ten guesses at once at their account: its own limit (3) answers three, the rest wait.
    const guesses = await Promise.all(
      Array.from({ length: 10 }, () => login(user.email, 'wrong-password', office)),
    );
    expect(guesses.map((g) => g.statusCode).sort()).toEqual([401, 401, 401, ...Array(7).fill(429)]);
    expect((await login(user.email, user.password, office)).statusCode).toBe(429);
  });

  it('a newcomer who verified their e-mail at the address, or reset their password there, logs in; anyone else waits', async () => {
    const office = '192.0.2.20';
    await fillAddress(office);
    const email = uniqueEmail('newcomer');
    const password = 'a newcomer at the office';
    expect(
      (await post('/auth/signup', { email, password, username: 'New', country: 'Spain' }, office)).statusCode,
    ).toBe(201);
    const verify = await waitForMailLink(t, email, /verify/i);
    expect((await post('/auth/verifyemail', { token: tokenOf(verify) }, office)).statusCode).toBe(200);
    expect((await login(email, password, office)).statusCode).toBe(200);

    // Verified and logged in elsewhere only: the address's limit holds for them, until they reset there.
    const other = await signedInUser(t);
    expect((await login(other.email, other.password, office)).statusCode).toBe(429);
    expect((await post('/auth/inititatechangepassword', { email: other.email }, office)).statusCode).toBe(
      200,
    );
    const reset = await waitForMailLink(t, other.email, /reset/i);
    const fresh = 'a brand new office passphrase';
    expect(
      (await post('/auth/resetpassword', { token: tokenOf(reset), password: fresh }, office)).statusCode,
    ).toBe(200);
    expect((await login(other.email, fresh, office)).statusCode).toBe(200);
  });

  it('the purge drops failures after a day and keeps a proof of login at an address for 30 days', async () => {
    const db = t.ctx.database.db;
    await db.execute(sql`insert into login_attempts (key, attempted_at) values
      ('login:purge@x.io|192.0.2.30', now() - interval '2 days'),
      ('login-ok:purge@x.io|192.0.2.30', now() - interval '2 days'),
      ('login-ok:gone@x.io|192.0.2.30', now() - interval '31 days')`);
    await t.ctx.services.auth.purgeExpired();
    const left = await typedRows<{ key: string }>(
      db,
      sql`select key from login_attempts where key like '%|192.0.2.30' order by key`,
    );
    expect(left.map((r) => r.key)).toEqual(['login-ok:purge@x.io|192.0.2.30']);
  });
});
