import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TEXT } from '@flywheel/shared/auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { bearer, signedInUser, tokenOf, uniqueEmail, waitForMailLink } from '../../testing/factories.ts';

const SECRET = 'a-test-secret-that-is-long-enough-1234567890';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ JWT_SECRET: SECRET });
});
afterAll(() => t.close());

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v0${url}`, payload: payload as object, headers });

describe('sign up, verify, log in, log out', () => {
  it('walks the whole flow and refuses the token after logout', async () => {
    const email = uniqueEmail('flow');
    const signup = await post('/auth/signup', {
      email: email.toUpperCase(),
      password: 'hunter2 rides the tram',
      username: 'Ann',
      country: 'France',
    });
    expect(signup.statusCode).toBe(201);
    expect(signup.json()).toEqual({ message: AUTH_TEXT.signupDone });

    const early = await post('/auth/login', { email, password: 'hunter2 rides the tram' });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: AUTH_TEXT.emailNotVerified });

    const link = await waitForMailLink(t, email, /verify/i);
    expect(link).toMatch(/^http:\/\/localhost:3000\/auth\/verify-email\?token=/);
    expect((await post('/auth/verifyemail', { token: tokenOf(link) })).statusCode).toBe(200);
    const again = await post('/auth/verifyemail', { token: tokenOf(link) });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('VERIFY_TOKEN_INVALID');

    const login = await post('/auth/login', { email, password: 'hunter2 rides the tram' });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(Object.keys(body).sort()).toEqual([
      'country',
      'email',
      'token',
      'userid',
      'username',
      'workspaces',
    ]);
    expect(body).toMatchObject({ email, username: 'Ann', country: 'France', workspaces: [] });
    const claims = decodeJwt(body.token);
    expect(claims.sub).toBe(body.userid);
    const hours = (claims.exp! * 1000 - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11);
    expect(hours).toBeLessThanOrEqual(12);

    const me = await t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(body.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ userid: body.userid, email });

    const logout = await post('/auth/logout', { email, token: body.token }, bearer(body.token));
    expect(logout.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(body.token) });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'TOKEN_REVOKED' });
  });

  it("'Keep me signed in' issues a 30-day token", async () => {
    const user = await signedInUser(t);
    const res = await post('/auth/login', { email: user.email, password: user.password, remember: true });
    const days = (decodeJwt(res.json().token).exp! * 1000 - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(29);
  });

  it('a signup with a taken e-mail (any case) answers as for a new one; the owner gets a mail, nothing changes', async () => {
    const user = await signedInUser(t);
    const body = { password: 'another-passphrase-9', username: 'Bo', country: 'Spain' };
    const taken = await post('/auth/signup', { ...body, email: user.email.toUpperCase() });
    const fresh = await post('/auth/signup', { ...body, email: uniqueEmail('fresh') });
    expect([taken.statusCode, taken.json()]).toEqual([201, { message: AUTH_TEXT.signupDone }]);
    expect([taken.statusCode, taken.json()]).toEqual([fresh.statusCode, fresh.json()]);
    // The owner is told, with the way in; no verification link goes to anyone for the taken address.
    const link = await waitForMailLink(t, user.email, /tried to sign up/i);
    expect(link).toBe('http://localhost:3000/auth/login');
    const outbox = await t.app.inject({
      method: 'GET',
      url: `/api/dev/outbox?to=${encodeURIComponent(user.email)}`,
    });
    const subjects = (outbox.json().messages as { subject: string }[]).map((m) => m.subject);
    expect(subjects.filter((x) => /verify/i.test(x))).toHaveLength(1); // the owner's own signup
    // The account is as it was: the owner's password works, the new one does not.
    expect((await post('/auth/login', { email: user.email, password: user.password })).statusCode).toBe(200);
    expect((await post('/auth/login', { email: user.email, password: body.password })).statusCode).toBe(401);
  });

  it('re-sends verification only to unverified accounts, answering the same either way', async () => {
    const email = uniqueEmail('resend');
    await post('/auth/signup', {
      email,
      password: 'hunter2 rides the tram',
      username: 'Cy',
      country: 'Chile',
    });
    const first = await waitForMailLink(t, email, /verify/i);
    const res = await post('/auth/resendverification', { email });
    const unknown = await post('/auth/resendverification', { email: uniqueEmail('nobody') });
    expect(res.json()).toEqual(unknown.json());
    let second = first;
    for (let i = 0; i < 50 && second === first; i++) {
      second = await waitForMailLink(t, email, /verify/i);
      if (second === first) await new Promise((r) => setTimeout(r, 100));
    }
    expect(second).not.toBe(first);
    // Only the newest link works.
    expect((await post('/auth/verifyemail', { token: tokenOf(first) })).statusCode).toBe(400);
    expect((await post('/auth/verifyemail', { token: tokenOf(second) })).statusCode).toBe(200);
  });
});

describe('bad input gets 400 or 401 with a message a person can act on', () => {
  it.each([
    ['no payload', undefined, 'Payload is required'],
    ['missing email', { password: 'x', username: 'u', country: 'France' }, 'Email is required'],
    ['missing password', { email: 'a@b.co', username: 'u', country: 'France' }, 'Password is required'],
    [
      'malformed e-mail',
      { email: 'not-an-email', password: 'hunter2 rides the tram', username: 'u', country: 'France' },
      'Enter a valid email address, like name@example.com',
    ],
    [
      'short password',
      { email: 'a@b.co', password: 'short', username: 'u', country: 'France' },
      'Password must be at least 8 characters',
    ],
    [
      'no country',
      { email: 'a@b.co', password: 'hunter2 rides the tram', username: 'uu' },
      'Please select you country',
    ],
    [
      'unknown country',
      { email: 'a@b.co', password: 'hunter2 rides the tram', username: 'uu', country: 'Atlantis' },
      'Please select you country',
    ],
    [
      'short username',
      { email: 'a@b.co', password: 'hunter2 rides the tram', username: 'u', country: 'France' },
      'Username must be 2 to 40 characters',
    ],
  ])('signup with %s', async (_name, payload, message) => {
    const res = await post('/auth/signup', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, message });
  });

  it('malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v0/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The request body is not valid JSON');
  });

  it('a wrong password and an unknown e-mail get the same 401', async () => {
    const user = await signedInUser(t);
    const wrong = await post('/auth/login', { email: user.email, password: 'not-the-password' });
    const unknown = await post('/auth/login', { email: uniqueEmail('ghost'), password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe(AUTH_TEXT.invalidCredentials);
  });

  it.each([
    ['no header', undefined, 'TOKEN_REQUIRED', 'Token is required'],
    ['not a bearer', 'Basic abc', 'TOKEN_REQUIRED', 'Token is required'],
    ['garbage', 'Bearer not.a.jwt', 'TOKEN_INVALID', 'Your session token is not valid. Please log in again.'],
  ])('an authenticated call with %s', async (_n, authorization, code, message) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v0/auth/me',
      headers: authorization ? { authorization } : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ statusCode: 401, code, message });
  });

  it('a token forged with another key is refused', async () => {
    const user = await signedInUser(t);
    const claims = decodeJwt(user.token);
    const forged = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.userid)
      .setJti(claims.jti!)
      .setIssuer('flywheel')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-that-is-long-enough-000'));
    const res = await t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(forged) });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_INVALID');
  });

  it('an expired token is refused with a message to log in again', async () => {
    const user = await signedInUser(t);
    const claims = decodeJwt(user.token);
    const expired = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.userid)
      .setJti(claims.jti!)
      .setIssuer('flywheel')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(SECRET));
    const res = await t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(expired) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'TOKEN_EXPIRED',
      message: 'Your session has expired. Please log in again.',
    });
  });

  it('a validly signed token for a session that never existed is refused', async () => {
    const user = await signedInUser(t);
    const invented = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.userid)
      .setJti('00000000-0000-0000-0000-000000000000')
      .setIssuer('flywheel')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    const res = await t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(invented) });
    expect(res.statusCode).toBe(401);
  });
});
