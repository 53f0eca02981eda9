import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './config.ts';

const tsx = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
const main = path.join(REPO_ROOT, 'apps/server/src/main.ts');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

function run(env: Record<string, string>) {
  const child = spawn(tsx, [main], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 150));
  }
}

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

  it('with a Slack app configured: starts on embedded PGlite, serves health, shuts down gracefully', async () => {
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
    }, 20_000);
    expect(health.status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);
    const config = (await (await fetch(`http://127.0.0.1:${port}/api/v0/public/config`)).json()) as {
      demoMode: boolean;
    };
    expect(config.demoMode).toBe(false);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('shutdown complete');
  });

  it('in demo mode: starts the emulator, connects its workspace through install and import, and stops both', async () => {
    const dataDir = tempDir();
    const [port, emulatorPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const p = run({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DEMO_EMULATOR_PORT: String(emulatorPort),
      DEMO_MEMBERS: '40',
      DEMO_CHANNELS: '4',
      DEMO_DAYS: '5',
      DEMO_LIVE_INTERVAL_MS: '0',
    });
    const config = await waitFor(async () => {
      const c = (await (await fetch(`${base}/api/v0/public/config`)).json()) as {
        demoMode: boolean;
        demoEmail: string;
        demoPassword: string;
      };
      return c.demoMode ? c : undefined;
    }, 30_000);
    expect(config).toEqual({
      demoMode: true,
      demoEmail: 'demo@flywheel.local',
      demoPassword: 'flywheel-demo',
    });
    expect(p.output()).toContain('log in as demo@flywheel.local / flywheel-demo');

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
    }, 60_000);
    expect(done.messages).toBeGreaterThan(0);
    const members = (await (
      await fetch(`${base}/api/v0/members/getmembers/${teamId}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as {
      data: unknown[];
    };
    expect(members.data.length).toBeGreaterThanOrEqual(40);

    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    // The emulator process went with it.
    await expect(fetch(`http://127.0.0.1:${emulatorPort}/_admin/state`)).rejects.toThrow();
  });
});
