import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { uniqueEmail, waitForMailLink } from '../testing/factories.ts';

// Issue 18 item 3: the development outbox answers this machine only, is off in production, and e-mailed
// links reach the log only in development.
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

let t: TestApp;
const log = capture();
beforeAll(async () => {
  t = await buildTestApp({}, { logStream: log.stream });
});
afterAll(() => t.close());

const requestReset = (email: string) =>
  t.app.inject({ method: 'POST', url: '/api/v0/auth/inititatechangepassword', payload: { email } });
const signup = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v0/auth/signup',
    payload: { email, password: 'a long enough passphrase 42', username: 'Outbox', country: 'Germany' },
  });

describe('the development outbox', () => {
  it('answers loopback clients and refuses any other address, also through a proxy on this machine', async () => {
    const email = uniqueEmail('outbox');
    expect((await signup(email)).statusCode).toBe(201);
    await waitForMailLink(t, email, /verify/i);
    const url = `/api/dev/outbox?to=${encodeURIComponent(email)}`;
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const ok = await t.app.inject({ method: 'GET', url, remoteAddress });
      expect([remoteAddress, ok.statusCode]).toEqual([remoteAddress, 200]);
    }
    for (const remoteAddress of ['203.0.113.5', '10.0.0.2', '::ffff:192.168.1.4', '2001:db8::1']) {
      const res = await t.app.inject({ method: 'GET', url, remoteAddress });
      expect([remoteAddress, res.statusCode, res.json().code]).toEqual([remoteAddress, 403, 'FORBIDDEN']);
      expect(res.body).not.toContain('token=');
    }
    const proxied = await t.app.inject({
      method: 'GET',
      url,
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.5' },
    });
    expect(proxied.statusCode).toBe(403);
  });

  it('is off in production, and cannot be turned on there', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).devOutbox).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', DEV_OUTBOX: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DEV_OUTBOX: 'true' })).toThrow(/DEV_OUTBOX/);
  });

  it('never logs reset or verification links outside development', async () => {
    const email = uniqueEmail('nolog');
    expect((await signup(email)).statusCode).toBe(201);
    expect((await requestReset(email)).statusCode).toBe(200);
    await waitForMailLink(t, email, /reset/i);
    const stored = log.lines.filter((l) => l.includes('development outbox'));
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(log.lines.join('')).not.toMatch(/token=/);
  });
});

describe('links in the log in development', () => {
  it('are printed for the newcomer (NODE_ENV=development)', async () => {
    const dev = capture();
    const d = await buildTestApp({ NODE_ENV: 'development' }, { logStream: dev.stream });
    try {
      const email = uniqueEmail('devlog');
      const res = await d.app.inject({
        method: 'POST',
        url: '/api/v0/auth/signup',
        payload: { email, password: 'a long enough passphrase 42', username: 'Dev', country: 'Germany' },
      });
      expect(res.statusCode).toBe(201);
      await waitForMailLink(d, email, /verify/i);
      expect(dev.lines.join('')).toMatch(/token=/);
    } finally {
      await d.close();
    }
    // A second embedded database of its own: slow to create on a busy machine.
  }, 90_000);
});
