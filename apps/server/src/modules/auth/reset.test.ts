import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TEXT } from '@flywheel/shared/auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { bearer, signedInUser, tokenOf, uniqueEmail, waitForMailLink } from '../../testing/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload?: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/v0${url}`, payload: payload as object });

describe('password reset', () => {
  it('answers the same for a known and an unknown e-mail, and mails only the known one', async () => {
    const user = await signedInUser(t);
    const ghost = uniqueEmail('ghost');
    const known = await post('/auth/inititatechangepassword', { email: user.email });
    const unknown = await post('/auth/inititatechangepassword', { email: ghost });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({ message: AUTH_TEXT.resetRequested });
    await waitForMailLink(t, user.email, /reset/i);
    const ghostBox = await t.app.inject({
      method: 'GET',
      url: `/api/dev/outbox?to=${encodeURIComponent(ghost)}`,
    });
    expect(ghostBox.json().messages).toEqual([]);
  });

  it('sets a new password through the e-mailed link once, and ends the old sessions', async () => {
    const user = await signedInUser(t);
    await post('/auth/inititatechangepassword', { email: user.email });
    const link = await waitForMailLink(t, user.email, /reset/i);
    expect(link).toMatch(/\/auth\/reset-password\?token=/);

    const weak = await post('/auth/resetpassword', { token: tokenOf(link), password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Password must be at least 8 characters');

    const done = await post('/auth/resetpassword', { token: tokenOf(link), password: 'brand-new-password' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: AUTH_TEXT.resetDone });

    const reuse = await post('/auth/resetpassword', {
      token: tokenOf(link),
      password: 'another-new-password',
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().code).toBe('RESET_TOKEN_INVALID');

    const old = await post('/auth/login', { email: user.email, password: user.password });
    expect(old.statusCode).toBe(401);
    const fresh = await post('/auth/login', { email: user.email, password: 'brand-new-password' });
    expect(fresh.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(user.token) });
    expect(me.statusCode).toBe(401);
  });

  it('refuses an invented token', async () => {
    const res = await post('/auth/resetpassword', { token: 'made-up', password: 'brand-new-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/invalid or has expired/);
  });
});
