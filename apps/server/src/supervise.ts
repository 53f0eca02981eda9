import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `npm start`'s supervisor: runs the server (main.ts) as a child and starts it again when it ends abnormally
 * (a crash, the heap limit, kill -9), waiting 1, 2, 4 ... up to 30 s between quick failures. The child runs in
 * its own process group, so whatever it started (the demo's Slack emulator) goes down with it and frees its
 * port. SIGINT/SIGTERM are passed on for a graceful stop. In production use a service manager instead (docs/operations/production.md).
 */

/** main.ts exits with this code when the configuration is wrong: starting again would not help. */
const EXIT_CONFIG = 78;

const here = path.dirname(fileURLToPath(import.meta.url));
/** Built (scripts/build.mjs: dist/supervise.js runs dist/main.js with plain node) or run from source through tsx. */
const built = import.meta.url.endsWith('.js');
// From source, tsx's loader in the server's own process: its CLI adds a wrapper process that, on SIGTERM, sometimes
// exited (143) before the server had stopped, and stood between the supervisor and the server's health reports.
const nodeArgs = built
  ? [path.join(here, 'main.js')]
  : [
      '--import',
      pathToFileURL(path.resolve(here, '../../../node_modules/tsx/dist/loader.mjs')).href,
      path.join(here, 'main.ts'),
    ];
const MAX_DELAY_MS = 30_000;
/** A run this long counts as healthy: the next crash starts the backoff again at 1 s. */
const HEALTHY_MS = 60_000;
/**
 * The server reports its health every 5 s over IPC (main.ts): its database answered a trivial query in time. With
 * no healthy report for this long (its database stuck, its event loop stopped), it is killed and started again.
 */
const UNHEALTHY_MS = Number(process.env.SUPERVISE_UNHEALTHY_SECONDS ?? 60) * 1000;
/** Before its first report a server is starting (migrations, a large PGlite to open): it gets this long. */
const STARTUP_MS = Number(process.env.SUPERVISE_STARTUP_SECONDS ?? 300) * 1000;

const log = (msg: string, extra: Record<string, unknown> = {}) =>
  console.error(JSON.stringify({ level: 'warn', time: Date.now(), name: 'supervisor', msg, ...extra }));

let child: ChildProcess | undefined;
let stopping = false;
let delay = 1000;

function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

function start() {
  const startedAt = Date.now();
  const c = spawn(process.execPath, nodeArgs, {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  child = c;
  let reported = false;
  let healthyAt = startedAt;
  c.on('message', (m: { type?: string; ok?: boolean }) => {
    if (m?.type !== 'health') return;
    reported = true;
    if (m.ok) healthyAt = Date.now();
  });
  const watchdog = setInterval(() => {
    const limit = reported ? UNHEALTHY_MS : STARTUP_MS;
    if (stopping || !c.pid || Date.now() - healthyAt <= limit) return;
    clearInterval(watchdog);
    log(
      'the server has not been healthy for a while (its database or its event loop does not answer); restarting it',
      {
        pid: c.pid,
        unhealthyForMs: Date.now() - healthyAt,
      },
    );
    killGroup(c.pid, 'SIGKILL');
  }, 1000);
  c.once('exit', (code, signal) => {
    clearInterval(watchdog);
    // Whatever the server left behind (the demo's emulator) goes with it.
    if (c.pid) killGroup(c.pid, 'SIGKILL');
    child = undefined;
    if (stopping) process.exit(code ?? 0);
    if (code === 0) process.exit(0);
    if (code === EXIT_CONFIG) process.exit(1);
    if (Date.now() - startedAt > HEALTHY_MS) delay = 1000;
    log('the server stopped unexpectedly; starting it again', { code, signal, restartInMs: delay });
    setTimeout(start, delay);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    if (!child?.pid) process.exit(0);
    // The server stops gracefully (up to 25 s), then the rest of its group.
    killGroup(child.pid, signal);
  });
}

start();
