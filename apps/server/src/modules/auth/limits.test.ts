import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { signedInUser, uniqueEmail } from '../../testing/factories.ts';

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
});
