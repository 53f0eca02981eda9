import { expect } from 'vitest';
import type { LoginResponse } from '@flywheel/shared/auth';
import type { TestApp } from './build-test-app.ts';

let seq = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}.${++seq}@example.com`;

/** Polls the development outbox until a mail to `to` whose subject matches arrives; returns its first link. */
export async function waitForMailLink(
  t: TestApp,
  to: string,
  subject: RegExp,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
    const mail = (res.json().messages as { subject: string; links: string[] }[]).find((m) =>
      subject.test(m.subject),
    );
    if (mail?.links[0]) return mail.links[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** Signs up, verifies through the e-mailed link and logs in; returns the login response. */
export async function signedInUser(t: TestApp, overrides: Partial<{ email: string; password: string }> = {}) {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const signup = await t.app.inject({
    method: 'POST',
    url: '/api/v0/auth/signup',
    payload: { email, password, username: 'Test Admin', country: 'Germany' },
  });
  expect(signup.statusCode).toBe(201);
  const link = await waitForMailLink(t, email, /verify/i);
  const verify = await t.app.inject({
    method: 'POST',
    url: '/api/v0/auth/verifyemail',
    payload: { token: tokenOf(link) },
  });
  expect(verify.statusCode).toBe(200);
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/v0/auth/login',
    payload: { email, password },
  });
  expect(login.statusCode).toBe(200);
  return { ...(login.json() as LoginResponse), password };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
