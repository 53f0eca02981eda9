import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './config.ts';

const tsx = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
const main = path.join(REPO_ROOT, 'apps/server/src/main.ts');

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

// Runs once, on PGlite (the PostgreSQL project excludes this file; it covers the same code through inject).
describe('the server process', () => {
  it('refuses to start on a bad variable, naming it', async () => {
    const p = run({ PORT: 'not-a-port' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toMatch(/Invalid configuration:\n\s+PORT:/);
  });

  it('starts on embedded PGlite, serves health, and shuts down gracefully on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-main-'));
    const port = await freePort();
    const p = run({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
    let health: Response | undefined;
    for (let i = 0; i < 200 && !health; i++) {
      health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
      if (!health) await new Promise((r) => setTimeout(r, 100));
    }
    expect(health?.status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('shutdown complete');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
