import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptsOf } from '../plugins/security-headers.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';

// Issue 18 item 6: security headers on every answer (the SPA, the API, errors, the API docs).
let t: TestApp;
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-web-'));
// The built page has one inline script (the web app's boot script); the CSP allows it by its hash alone.
const BOOT = '(function () { window.__boot = 1; })();';
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  `<!doctype html><title>Flywheel SPA</title><script>${BOOT}</script><script type="module" src="/assets/i.js"></script>`,
);

beforeAll(async () => {
  t = await buildTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('security headers', () => {
  it.each([
    '/dashboard/home',
    '/api/health',
    '/api/v0/auth/me',
    '/api/nothing',
    '/api/docs/',
    '/api/docs/json',
  ])('%s carries CSP, frame, sniffing and referrer headers', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBeLessThan(500);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // Plain http (the demo): no HSTS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it("allows the page's own inline script by its hash, and no other inline script", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard/home' });
    const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))![1]!;
    const hash = crypto.createHash('sha256').update(BOOT).digest('base64');
    expect(scriptSrc.split(' ')).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(
      inlineScriptsOf('<script>a</script><script src="/x.js"></script><script type="module">b</script>'),
    ).toEqual(['a', 'b']);
  });

  it('sends HSTS when the public address is https', async () => {
    const https = await buildTestApp(
      { WEB_DIST: webDist, PUBLIC_URL: 'https://flywheel.example.com' },
      { workers: false },
    );
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await https.close();
    }
  });

  it('an /api/v0 answer says how long the server took over it (Server-Timing), also a refusal', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v0/auth/me' });
    expect(res.statusCode).toBe(401);
    const timing = /^app;dur=(\d+\.\d)$/.exec(String(res.headers['server-timing']));
    expect(timing).not.toBeNull();
    expect(Number(timing![1])).toBeGreaterThanOrEqual(0);
    // Not on the SPA's HTML.
    const spa = await t.app.inject({ method: 'GET', url: '/dashboard/home' });
    expect(spa.headers['server-timing']).toBeUndefined();
  });
});
