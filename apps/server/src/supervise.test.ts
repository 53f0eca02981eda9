import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { demoEnv, freePort, runScript, stopStarted, waitFor } from './testing/processes.ts';

// Issue 18 item 8: `npm start` comes back by itself after a crash and takes the demo's emulator down with it.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-supervise-'));
// A test that failed half-way must not leave its supervisor (and server) running.
afterEach(stopStarted);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const run = (env: Record<string, string>) => runScript('supervise.ts', env);

/** The pid of the server process from its "Flywheel is running" log lines (pino logs the pid). */
const serverPids = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.includes('Flywheel is running'))
    .map((l) => (JSON.parse(l) as { pid: number }).pid);

describe('the supervisor (npm start)', () => {
  it('a bad configuration stops it at once (no restart loop)', async () => {
    const p = run({ PORT: 'not-a-port' });
    expect(await p.exited).toBe(1);
    expect(p.output().match(/Invalid configuration/g)).toHaveLength(1);
  });

  it('a server that stops answering (its process frozen) is killed and started again', async () => {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-supervise-frozen-'));
    try {
      const p = run({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        SLACK_CLIENT_ID: '1.2',
        SLACK_CLIENT_SECRET: 'secret',
        SLACK_SIGNING_SECRET: 'signing',
        SUPERVISE_UNHEALTHY_SECONDS: '8',
      });
      await waitFor(async () => (serverPids(p.output()).length === 1 ? true : undefined), 90_000);
      // Its first health report has reached the supervisor (every 5 s) before it freezes.
      await new Promise((r) => setTimeout(r, 6_000));
      const [first] = serverPids(p.output());
      // Alive but not answering, as a process whose event loop or database is stuck: the port stays taken.
      process.kill(first!, 'SIGSTOP');
      const second = await waitFor(async () => {
        const pids = serverPids(p.output());
        if (pids.length < 2) return undefined;
        return (await fetch(`http://127.0.0.1:${port}/api/health`)).ok ? pids[1] : undefined;
      }, 90_000);
      expect(second).not.toBe(first);
      expect(p.output()).toContain('the server has not been healthy for a while');
      // The frozen process was killed, not left behind.
      expect(() => process.kill(first!, 0)).toThrow();
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 200_000);

  it('after kill -9 the server answers again by itself, with a fresh demo emulator on the same port', async () => {
    const [port, emulatorPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const p = run(demoEnv({ port, emulatorPort, dataDir, members: 20, channels: 2, days: 2 }));
    const emulatorUp = () =>
      fetch(`http://127.0.0.1:${emulatorPort}/_admin/state`).then((r) => (r.ok ? true : undefined));
    await waitFor(
      () => (serverPids(p.output()).length === 1 ? emulatorUp() : Promise.resolve(undefined)),
      60_000,
    );
    const [first] = serverPids(p.output());
    const secret = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-slack-app.json'), 'utf8'));
    expect(secret.signingSecret).toMatch(/^[0-9a-f]{48}$/);

    const killedAt = Date.now();
    process.kill(first!, 'SIGKILL');
    const second = await waitFor(async () => {
      const pids = serverPids(p.output());
      if (pids.length < 2) return undefined;
      return (await fetch(`${base}/api/health`)).ok ? pids[1] : undefined;
    }, 30_000);
    expect(second).not.toBe(first);
    // 15 s on a quiet machine (bench/hardening); generous here, where the test suites share the cores.
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(p.output()).toContain('the server stopped unexpectedly; starting it again');
    // The old emulator went with the killed server, so the new one could take the port.
    await waitFor(emulatorUp, 30_000);
    expect(p.output()).not.toContain('The demo could not start');
    // The same generated secret is used again.
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-slack-app.json'), 'utf8'))).toEqual(secret);

    p.child.kill('SIGTERM');
    // The supervisor's own handler stops the server's whole group and exits once the server has: then the server
    // and its emulator are gone.
    expect(await p.exited).toBe(0);
    await expect(fetch(`${base}/api/health`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${emulatorPort}/_admin/state`)).rejects.toThrow();
  }, 150_000);
});
