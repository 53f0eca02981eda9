import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.ts';
import { createScratchDatabase, testDbKind } from './testing/build-test-app.ts';
import { freePort, runScript, stopStarted, waitFor } from './testing/processes.ts';

// Deadlines, not speed checks (see main.test.ts): three processes compile and start at once on two cores.
const STARTUP_MS = 150_000;

const dirs: string[] = [];
afterAll(async () => {
  await stopStarted();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

// Several processes on one database is a PostgreSQL set-up (PGlite is one process's own): the PostgreSQL project.
describe.runIf(testDbKind() === 'postgres')(
  'processes started together on a fresh PostgreSQL database',
  () => {
    it(
      'all three apply the migrations once between them and serve',
      async () => {
        const scratch = await createScratchDatabase();
        try {
          const ports = [await freePort(), await freePort(), await freePort()];
          const procs = ports.map((port, i) => {
            const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-startup-'));
            dirs.push(dataDir);
            return runScript('main.ts', {
              PORT: String(port),
              HOST: '127.0.0.1',
              DATA_DIR: dataDir,
              DATABASE_URL: scratch.url,
              // One API, one worker and one of each, as a production set-up runs them.
              ROLE: ['api', 'worker', 'all'][i]!,
              SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
              SLACK_CLIENT_ID: '1.2',
              SLACK_CLIENT_SECRET: 'secret',
              SLACK_SIGNING_SECRET: 'signing',
            });
          });
          // The worker has no HTTP server: it says so in its log once it runs.
          await waitFor(
            async () => (procs[1]!.output().includes('Flywheel worker is running') ? true : undefined),
            STARTUP_MS,
          );
          for (const port of [ports[0]!, ports[2]!]) {
            const health = await waitFor(async () => {
              const r = await fetch(`http://127.0.0.1:${port}/api/health`);
              return r.ok ? r : undefined;
            }, STARTUP_MS);
            expect(health.status).toBe(200);
          }
          for (const p of procs) {
            expect(p.child.exitCode).toBeNull();
            expect(p.output()).not.toMatch(/duplicate key|already exists/);
          }
          // Every migration is recorded once.
          const pg = (await import('pg')).default;
          const c = new pg.Client({ connectionString: scratch.url });
          await c.connect();
          const { rows } = await c.query<{ n: number; d: number }>(
            'select count(*)::int as n, count(distinct hash)::int as d from drizzle.__drizzle_migrations',
          );
          await c.end();
          const files = fs
            .readdirSync(path.join(import.meta.dirname, 'db/migrations'))
            .filter((f) => f.endsWith('.sql'));
          expect(rows[0]).toEqual({ n: files.length, d: files.length });
          for (const p of procs) p.child.kill('SIGTERM');
          expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0, 0]);
        } finally {
          await stopStarted();
          await scratch.drop();
        }
      },
      STARTUP_MS * 2,
    );
  },
);

// ROLE=migrate (compose.yml's one-shot service): the migrations and the job queue's schema are applied, then it exits.
describe(`ROLE=migrate on a fresh ${testDbKind() === 'postgres' ? 'PostgreSQL' : 'PGlite'} database`, () => {
  it(
    'applies every migration and the queue schema, serves nothing, and exits 0',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-migrate-'));
      dirs.push(dataDir);
      const scratch = testDbKind() === 'postgres' ? await createScratchDatabase() : undefined;
      try {
        const port = await freePort();
        const proc = runScript('main.ts', {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          ROLE: 'migrate',
          ...(scratch
            ? { DATABASE_URL: scratch.url, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }
            : {}),
          SLACK_CLIENT_ID: '1.2',
          SLACK_CLIENT_SECRET: 'secret',
          SLACK_SIGNING_SECRET: 'signing',
        });
        expect(await proc.exited, proc.output()).toBe(0);
        expect(proc.output()).toContain('migrations applied');
        await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
        const database = await openDatabase(
          scratch ? { databaseUrl: scratch.url } : { pgliteDir: path.join(dataDir, 'pglite') },
        );
        try {
          const migrations = await database.executeSql(
            'select count(*)::int as n from drizzle.__drizzle_migrations',
          );
          const files = fs
            .readdirSync(path.join(import.meta.dirname, 'db/migrations'))
            .filter((f) => f.endsWith('.sql'));
          expect(migrations.rows[0]).toEqual({ n: files.length });
          const queues = await database.executeSql(
            "select count(*)::int as n from pgboss.queue where name = 'delivery.send'",
          );
          expect(queues.rows[0]).toEqual({ n: 1 });
        } finally {
          await database.close();
        }
      } finally {
        await stopStarted();
        await scratch?.drop();
      }
    },
    STARTUP_MS,
  );
});
