import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../config.ts';
import type { Logger } from '../lib/logger.ts';

export type EmulatorProcess = { url: string; stop(): Promise<void> };

/**
 * Runs the bundled Slack emulator as its own process (the server never imports it: they meet over HTTP,
 * as the product meets Slack) and waits until it answers.
 */
export async function startEmulatorProcess(
  env: Record<string, string>,
  port: number,
  logger: Logger,
): Promise<EmulatorProcess> {
  // A built server (apps/server/dist/main.js) starts the emulator built beside it, with plain node; from source,
  // the emulator's source through tsx.
  const args = import.meta.url.endsWith('.js')
    ? [path.join(REPO_ROOT, 'apps/server/dist/emulator.js')]
    : [
        path.join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'),
        path.join(REPO_ROOT, 'packages/slack-emulator/src/cli.ts'),
      ];
  const child: ChildProcess = spawn(process.execPath, args, {
    // Its stdin is a pipe from us: when this process dies (even by kill -9) the emulator stops too.
    env: { ...process.env, ...env, EMULATOR_PORT: String(port), EMULATOR_EXIT_WITH_PARENT: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => (output += c));
  child.stderr?.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`${url}/_admin/state`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The Slack emulator did not start on port ${port}:\n${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  logger.info({ url }, 'Slack emulator started for the demo');
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
