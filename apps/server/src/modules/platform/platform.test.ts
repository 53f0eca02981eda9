import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDbKind, type TestApp } from '../../testing/build-test-app.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';

let t: TestApp;
let logs = '';
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-web-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Flywheel SPA</title>');
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
// A built file with the brotli and gzip copies the web build writes beside it (apps/web/scripts/compress.mjs).
const bigJs = `${'export const rows = [];\n'.repeat(200)}console.log(rows);\n`;
const bigFile = path.join(webDist, 'assets', 'page-def456.js');
fs.writeFileSync(bigFile, bigJs);
fs.writeFileSync(`${bigFile}.br`, zlib.brotliCompressSync(bigJs));
fs.writeFileSync(`${bigFile}.gz`, zlib.gzipSync(bigJs));

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs += chunk.toString();
      cb();
    },
  });
  t = await buildTestApp({ WEB_DIST: webDist }, { logStream: stream });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('platform', () => {
  it('GET /api/health reports database and queue', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      role: 'all',
      database: { status: 'ok', kind: testDbKind() },
      queue: { status: 'ok' },
    });
    expect(res.json().queue.workers).toBeGreaterThan(0);
  });

  it('GET /api/health/live answers without the database; /api/health/ready checks database, queue and migrations', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    const files = fs
      .readdirSync(path.join(import.meta.dirname, '../../db/migrations'))
      .filter((f) => f.endsWith('.sql'));
    expect(ready.json()).toMatchObject({
      status: 'ok',
      database: { status: 'ok' },
      queue: { status: 'ok' },
      migrations: { status: 'ok', applied: files.length, expected: files.length },
    });
  });

  it('ready is 503 when a migration of this build is missing from the database; live stays 200', async () => {
    const other = await buildTestApp({}, { workers: false });
    try {
      const last = await other.ctx.database.executeSql(
        'select id from drizzle.__drizzle_migrations order by created_at desc limit 1',
      );
      const id = (last.rows[0] as { id: number }).id;
      await other.ctx.database.executeSql(
        `delete from drizzle.__drizzle_migrations where id = ${Number(id)}`,
      );
      const ready = await other.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'degraded', migrations: { status: 'behind' } });
      expect(ready.json().migrations.applied).toBe(ready.json().migrations.expected - 1);
      expect((await other.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('health says degraded with 503 once the queue has stopped', async () => {
    const other = await buildTestApp();
    await other.ctx.queue.stop();
    const res = await other.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'degraded', queue: { status: 'down' } });
    await other.close();
  });

  it('health says the database is down (503) while it does not answer a trivial query, and ok again after', async () => {
    const other = await buildTestApp({ HEALTH_DB_TIMEOUT_MS: '300' }, { workers: false });
    // Every connection held by a transaction that waits (PGlite has one; the test pool on PostgreSQL has 4): a
    // stuck database, as a transaction that waited for itself left PGlite.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holders = Array.from({ length: 4 }, () =>
      other.ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await held;
      }),
    );
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'degraded',
        database: { status: 'down', reason: 'no answer to a trivial query within 300 ms' },
      });
      // Not ready either, but alive: an orchestrator keeps the process and stops sending it traffic.
      expect((await other.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(503);
      expect((await other.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      release();
      await Promise.all(holders);
    }
    const res = await other.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().database.status).toBe('ok');
    await other.close();
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v0/auth/login',
        '/api/v0/auth/signup',
        '/api/v0/auth/inititatechangepassword',
      ]),
    );
    expect(
      doc.paths['/api/v0/auth/login'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(expect.arrayContaining(['email', 'password']));
    // A contract with hide stays out of it: the bot's image is a file Slack fetches, not an API call.
    expect(doc.paths['/api/v0/alterbot/getbotdetails/{teamId}']).toBeDefined();
    expect(doc.paths['/api/v0/public/flywheel-bot.png']).toBeUndefined();
  });

  it('unknown API routes get the JSON 404 envelope; other paths get the SPA', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/v0/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'No such route: GET /api/v0/nope',
    });
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/home?x=1' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Flywheel SPA');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it("sends a built file's brotli or gzip copy to a browser that accepts it, else the file itself", async () => {
    const get = (encoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/assets/page-def456.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const br = await get('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(bigJs);

    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(bigJs);

    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bigJs);
    // A file without copies is sent as it is, whatever the browser accepts.
    const small = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log(1)');
  });

  it('public config says whether the server is in demo mode', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v0/public/config' });
    expect(res.json()).toEqual({ demoMode: false, demoEmail: null, demoPassword: null });
  });

  it('never writes passwords or tokens to the log', async () => {
    const user = await signedInUser(t, { password: 'a-very-secret-password' });
    await t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(user.token) });
    await t.app.inject({
      method: 'POST',
      url: '/api/v0/auth/logout',
      headers: bearer(user.token),
      payload: { token: user.token },
    });
    expect(logs).toContain('/api/v0/auth/me');
    expect(logs).not.toContain('a-very-secret-password');
    expect(logs).not.toContain(user.token);
    expect(logs).not.toContain(user.token.split('.')[2]);
  });
});
