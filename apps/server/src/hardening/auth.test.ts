import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { bearer, signedInUser, tokenOf, uniqueEmail, waitForMailLink } from '../testing/factories.ts';

// Issue 18 items 5 and 7: atomic login throttling per e-mail and address, a reset lifts it, mails throttled
// per recipient and per client, weak passwords refused with a reason, the session row's expiry honoured.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    LOGIN_MAX_PER_EMAIL: '5',
    LOGIN_MAX_PER_IP: '50',
    MAIL_MAX_PER_ADDRESS: '3',
    MAIL_MAX_PER_CLIENT: '6',
  });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, remoteAddress = '203.0.113.20') =>
  t.app.inject({ method: 'POST', url: `/api/v0${url}`, payload: payload as object, remoteAddress });
const login = (email: string, password: string, ip: string) => post('/auth/login', { email, password }, ip);

describe('login throttling', () => {
  it('20 parallel wrong passwords: exactly the limit (5) are checked, the rest are 429', async () => {
    const user = await signedInUser(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => login(user.email, 'wrong-password', '198.51.100.20')),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(15);
  });

  it('a stranger cannot lock the owner out; a successful reset lifts the lock everywhere', async () => {
    const user = await signedInUser(t);
    const attacker = '198.51.100.66';
    const owner = '192.0.2.10';
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong-password', attacker);
    expect((await login(user.email, 'wrong-password', attacker)).statusCode).toBe(429);
    expect((await login(user.email, user.password, owner)).statusCode).toBe(200);
    // The owner mistypes five times from home too: locked there...
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong-password', owner);
    expect((await login(user.email, user.password, owner)).statusCode).toBe(429);
    // ...until a password reset, as the message promises.
    expect((await post('/auth/inititatechangepassword', { email: user.email }, owner)).statusCode).toBe(200);
    const link = await waitForMailLink(t, user.email, /reset/i);
    const newPassword = 'a fresh passphrase 77';
    const reset = await post('/auth/resetpassword', { token: tokenOf(link), password: newPassword }, owner);
    expect(reset.statusCode).toBe(200);
    expect((await login(user.email, newPassword, owner)).statusCode).toBe(200);
    expect((await login(user.email, newPassword, attacker)).statusCode).toBe(200);
  });
});

describe('mail throttling', () => {
  it('per recipient: the 4th reset mail to one address within the window is 429, with Retry-After', async () => {
    const email = uniqueEmail('flood');
    for (let i = 0; i < 3; i++)
      expect((await post('/auth/inititatechangepassword', { email }, `192.0.2.${100 + i}`)).statusCode).toBe(
        200,
      );
    const res = await post('/auth/inititatechangepassword', { email }, '192.0.2.200');
    expect([res.statusCode, res.json().code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
    expect(res.json().message).toMatch(/Too many e-mails were requested\. Please wait \d+ minutes?/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('per client: one address cannot send signup, verification and reset mails in bulk', async () => {
    const ip = '192.0.2.250';
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      codes.push((await post('/auth/resendverification', { email: uniqueEmail('bulk') }, ip)).statusCode);
      codes.push(
        (await post('/auth/inititatechangepassword', { email: uniqueEmail('bulk') }, ip)).statusCode,
      );
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 200]);
    const signup = await post(
      '/auth/signup',
      { email: uniqueEmail('bulk'), password: 'a fresh passphrase 77', username: 'Bulk', country: 'Germany' },
      ip,
    );
    expect(signup.statusCode).toBe(429);
    expect(
      (await post('/auth/resendverification', { email: uniqueEmail('bulk') }, '192.0.2.251')).statusCode,
    ).toBe(200);
  });
});

describe('passwords', () => {
  it.each(['password', '12345678', 'qwertyuiop', 'Password1', 'aaaaaaaaaaaa'])(
    'refuses %s at signup with the reason',
    async (password) => {
      const res = await post(
        '/auth/signup',
        { email: uniqueEmail('weak'), password, username: 'Weak', country: 'Germany' },
        '192.0.2.77',
      );
      expect([res.statusCode, res.json().code]).toEqual([400, 'WEAK_PASSWORD']);
      expect(res.json().message).toMatch(/^This password is too easy to guess: .+\./);
    },
  );

  it('refuses a password made of the e-mail address, and a weak new password at reset (link kept)', async () => {
    const email = uniqueEmail('marguerite');
    const own = await post(
      '/auth/signup',
      { email, password: email, username: 'Marguerite', country: 'France' },
      '192.0.2.78',
    );
    expect([own.statusCode, own.json().code]).toEqual([400, 'WEAK_PASSWORD']);

    const user = await signedInUser(t);
    await post('/auth/inititatechangepassword', { email: user.email }, '192.0.2.79');
    const token = tokenOf(await waitForMailLink(t, user.email, /reset/i));
    const weak = await post('/auth/resetpassword', { token, password: '12345678' }, '192.0.2.79');
    expect([weak.statusCode, weak.json().code]).toEqual([400, 'WEAK_PASSWORD']);
    expect(weak.json().message).toContain('most used passwords');
    const strong = await post(
      '/auth/resetpassword',
      { token, password: 'plum orbit canyon 7' },
      '192.0.2.79',
    );
    expect(strong.statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it("honours the session row's expiry, not only the token's", async () => {
    const user = await signedInUser(t);
    const me = () => t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(user.token) });
    expect((await me()).statusCode).toBe(200);
    await t.ctx.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${user.userid}`,
    );
    const res = await me();
    expect([res.statusCode, res.json().code]).toEqual([401, 'TOKEN_EXPIRED']);
  });
});
