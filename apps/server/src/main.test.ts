import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoEnv, freePort, runScript, stopStarted, waitFor } from './testing/processes.ts';

const dirs: string[] = [];
afterEach(async () => {
  await stopStarted();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

// Deadlines, not speed checks: a process test starts tsx, compiles the server and migrates a fresh PGlite while the
// other test files share the machine's cores (seen: 11 s on a quiet 2-core machine, over 20 s with one core busy).
const STARTUP_MS = 90_000;
const PROCESS_TEST_MS = 180_000;
const run = (env: Record<string, string>) => runScript('main.ts', env);

const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-main-'));
  dirs.push(d);
  return d;
};

// Runs once, on PGlite (the PostgreSQL project excludes this file; it covers the same code through inject).
describe('the server process', () => {
  it('refuses to start on a bad variable, naming it', async () => {
    const p = run({ PORT: 'not-a-port' });
    expect(await p.exited).toBe(78);
    expect(p.output()).toMatch(/Invalid configuration:\n\s+PORT:/);
  });

  it(
    'with a Slack app configured: starts on embedded PGlite, serves health, shuts down gracefully',
    async () => {
      const dataDir = tempDir();
      const port = await freePort();
      const p = run({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SLACK_CLIENT_ID: '1.2',
        SLACK_CLIENT_SECRET: 'secret',
        SLACK_SIGNING_SECRET: 'signing',
      });
      const health = await waitFor(async () => {
        const r = await fetch(`http://127.0.0.1:${port}/api/health`);
        return r.ok ? r : undefined;
      }, STARTUP_MS);
      expect(health.status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);
      const config = (await (await fetch(`http://127.0.0.1:${port}/api/v0/public/config`)).json()) as {
        demoMode: boolean;
      };
      expect(config.demoMode).toBe(false);
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(p.output()).toContain('shutdown complete');
    },
    PROCESS_TEST_MS,
  );

  it(
    'in demo mode: starts the emulator, connects its workspace through install and import, seeds its actions, and stops both',
    async () => {
      const dataDir = tempDir();
      const [port, emulatorPort] = [await freePort(), await freePort()];
      const base = `http://127.0.0.1:${port}`;
      const p = run(demoEnv({ port, emulatorPort, dataDir, members: 40, channels: 4, days: 5 }));
      const config = await waitFor(async () => {
        const c = (await (await fetch(`${base}/api/v0/public/config`)).json()) as {
          demoMode: boolean;
          demoEmail: string;
          demoPassword: string;
        };
        return c.demoMode ? c : undefined;
      }, STARTUP_MS);
      expect(config).toEqual({
        demoMode: true,
        demoEmail: 'demo@flywheel.local',
        demoPassword: 'flywheel-demo',
      });
      // The log line is written before the config says demo, but reaches this process through another pipe.
      const line = 'log in as demo@flywheel.local / flywheel-demo';
      await waitFor(async () => (p.output().includes(line) ? true : undefined), 10_000).catch(
        () => undefined,
      );
      expect(p.output()).toContain(line);

      const login = await fetch(`${base}/api/v0/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: config.demoEmail, password: config.demoPassword }),
      });
      expect(login.status).toBe(200);
      const { token, workspaces } = (await login.json()) as {
        token: string;
        workspaces: { team_id: string }[];
      };
      expect(workspaces).toHaveLength(1);
      const teamId = workspaces[0]!.team_id;
      const done = await waitFor(async () => {
        const s = (await (
          await fetch(`${base}/api/v0/workspaces/status/${teamId}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as {
          backfill: { status: string; messages: number };
        };
        return s.backfill?.status === 'done' ? s.backfill : undefined;
      }, STARTUP_MS);
      expect(done.messages).toBeGreaterThan(0);
      const members = (await (
        await fetch(`${base}/api/v0/members/getmembers/${teamId}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as {
        data: unknown[];
      };
      expect(members.data.length).toBeGreaterThanOrEqual(40);

      // After the import, in the background, the seed: the Actions tabs, Workflows and Receipts have content.
      const get = async <T>(url: string) =>
        (await (
          await fetch(`${base}/api/v0${url}`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as {
          data: T[];
        };
      await waitFor(
        () => (p.output().includes('demo seeded') ? Promise.resolve(true) : Promise.resolve(undefined)),
        STARTUP_MS,
      );
      const [polls] = (await get<{ total_votes: number; state: string }>(`/poll/getpolls/${teamId}`)).data;
      expect(polls).toMatchObject({ state: 'active' });
      expect(polls!.total_votes).toBeGreaterThan(0);
      expect((await get(`/workflows/getworkflows/${teamId}`)).data).toHaveLength(1);
      const receipts = (await get<{ failed_recipient_count: number }>(`/receipts/getallreceipts/${teamId}`))
        .data;
      expect(receipts.filter((r) => r.failed_recipient_count > 0)).toHaveLength(1);
      expect(p.output()).not.toContain('The demo seed failed');

      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      // The emulator process went with it.
      await expect(fetch(`http://127.0.0.1:${emulatorPort}/_admin/state`)).rejects.toThrow();
    },
    PROCESS_TEST_MS,
  );
});
