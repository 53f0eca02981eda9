import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../config.ts';

// Helpers of the tests that start the server as a process (main.test.ts, supervise.test.ts).

/** tsx's loader, in the process itself: tsx's CLI would add a wrapper process of its own, which on SIGTERM sometimes
 * exited (143) before the script had stopped, so a test saw the process gone while the server still answered. */
const tsxLoader = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const started: ChildProcess[] = [];

/** A port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

/** Polls `fn` every 150 ms until it gives a value; a deadline, not a speed check. */
export async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Runs a script of apps/server/src with `env` (TypeScript through tsx's loader), collecting its output. */
export function runScript(script: 'main.ts' | 'supervise.ts', env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--import', tsxLoader, path.join(REPO_ROOT, 'apps/server/src', script)],
    {
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  started.push(child);
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

/** Stops what runScript started and is still running (a test that failed half-way leaves nothing behind). */
export async function stopStarted() {
  for (const c of started.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 20_000))]);
  }
}

/** The environment of a small demo server on 127.0.0.1 (its emulator on `emulatorPort`). */
export const demoEnv = (o: {
  port: number;
  emulatorPort: number;
  dataDir: string;
  members: number;
  channels: number;
  days: number;
}): Record<string, string> => ({
  PORT: String(o.port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${o.port}`,
  DATA_DIR: o.dataDir,
  DEMO_EMULATOR_PORT: String(o.emulatorPort),
  DEMO_MEMBERS: String(o.members),
  DEMO_CHANNELS: String(o.channels),
  DEMO_DAYS: String(o.days),
  DEMO_LIVE_INTERVAL_MS: '0',
});
