/**
 * Uploads benchmark (issue 30, bounded work per request): 200 parallel 5 MB image uploads to the real server
 * process on embedded PGlite, in demo mode (the bundled emulator in its own process stands in for Slack):
 *
 *   npx tsx bench/uploads/uploads.ts [--uploads 200] [--mb 5] [--port 4310] [--section after --title 'This code']
 *
 * 1. Starts `apps/server/src/main.ts` as `npm run start:once` does, with a small demo workspace, and waits for its
 *    history import; one upload warms the path (the multipart parser, the Slack client) before the baseline.
 * 2. The server's RSS (VmRSS of its process, from /proc) at rest: the baseline.
 * 3. N clients POST /api/v0/quickaction/uploadimage at once, each a 5 MB PNG (its signature, then random bytes).
 *    A client refused with 503 waits its Retry-After (plus up to 1 s of jitter) and sends again, until 201.
 *    RSS is sampled every 25 ms meanwhile: the peak.
 * 4. RSS after, at rest: sampled for 60 s after the last upload; the last reading is "after". Target: within
 *    100 MB of the baseline.
 *
 * Writes the section `uploads-<section>` of RESULTS.md beside this file (other sections stay), with the machine's
 * load average and a CPU marker (a fixed loop's time on one core), as bench/firstload does.
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const UPLOADS = Number(arg('uploads', '200'));
const MB = Number(arg('mb', '5'));
const PORT = Number(arg('port', '4310'));
const EMULATOR_PORT = PORT + 1;
const SECTION = arg('section', 'after');
const TITLE = arg('title', SECTION === 'after' ? 'This code' : SECTION);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const BASE = `http://127.0.0.1:${PORT}`;
const DEMO = { email: 'demo@flywheel.local', password: 'flywheel-demo' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);
const loadAvg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

/** One core's time for a fixed loop (the best of three), to compare runs across machines (as bench/firstload). */
function cpuMarker() {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t = performance.now();
    let x = 0;
    for (let i = 0; i < 1e8; i++) x = (x + i * 7) % 1_000_003;
    if (x < 0) console.log(x);
    best = Math.min(best, performance.now() - t);
  }
  return `a fixed loop took ${best.toFixed(0)} ms of one core`;
}

const memory = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(status.match(new RegExp(`${k}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
};

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(300);
  }
}

const marker = cpuMarker();
const loadAtStart = loadAvg();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-uploads-bench-'));
const uploadTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-uploads-bench-tmp-'));
let out = '';
const server = spawn(
  process.execPath,
  [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'apps/server/src/main.ts'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE,
      DATA_DIR: dataDir,
      UPLOAD_TMP_DIR: uploadTmp,
      LOG_LEVEL: 'warn',
      DEMO_EMULATOR_PORT: String(EMULATOR_PORT),
      DEMO_MEMBERS: '50',
      DEMO_CHANNELS: '4',
      DEMO_DAYS: '7',
      DEMO_LIVE_INTERVAL_MS: '0',
      LOGIN_MAX_PER_IP: '10000',
      LOGIN_MAX_PER_EMAIL: '10000',
    },
  },
);
server.stdout.on('data', (c) => (out = (out + c).slice(-20_000)));
server.stderr.on('data', (c) => (out = (out + c).slice(-20_000)));
/** The server's own process: the one listening on PORT (tsx runs main.ts in a child of its CLI). */
function serverPid(): number {
  const inode = fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .find(
      (f) => f[1]?.endsWith(`:${PORT.toString(16).toUpperCase().padStart(4, '0')}`) && f[3] === '0A',
    )?.[9];
  if (!inode) throw new Error(`nothing listens on ${PORT}`);
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`))
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return Number(pid);
    } catch {
      // another user's process, or gone
    }
  }
  throw new Error(`no process of ours holds port ${PORT}`);
}

try {
  await waitFor(
    'the server',
    async () => ((await fetch(`${BASE}/api/health`)).ok ? true : undefined),
    120_000,
  );
  const login = await waitFor(
    'the demo administrator',
    async () => {
      const res = await fetch(`${BASE}/api/v0/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO),
      });
      if (!res.ok) return undefined;
      const l = (await res.json()) as { token: string; workspaces: { team_id: string }[] };
      // The account exists a moment before its workspace is installed.
      return l.workspaces.length > 0 ? l : undefined;
    },
    600_000,
  );
  const teamId = login.workspaces[0]!.team_id;
  const auth = { authorization: `Bearer ${login.token}` };
  await waitFor(
    'the demo history import',
    async () => {
      const res = await fetch(`${BASE}/api/v0/workspaces/status/${teamId}`, { headers: auth });
      const s = (await res.json()) as { backfill: { status: string } | null };
      return s.backfill?.status === 'done' ? true : undefined;
    },
    600_000,
  );
  const pid = serverPid();
  log(`server pid ${pid}, workspace ${teamId}`);

  // One image of MB megabytes (a PNG by its first bytes), one multipart body shared by every client.
  const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const image = Buffer.concat([PNG_SIGNATURE, crypto.randomBytes(Math.round(MB * 1_000_000) - 8)]);
  const boundary = `bench-${crypto.randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="team_id"\r\n\r\n${teamId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="bench.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers = { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` };
  const post = () =>
    fetch(`${BASE}/api/v0/quickaction/uploadimage`, { method: 'POST', headers, body }).then(async (r) => ({
      status: r.status,
      retryAfter: Number(r.headers.get('retry-after') ?? 1),
      text: await r.text(),
    }));

  // Warm-up: one upload, so the baseline has the upload path's code loaded.
  const warm = await post();
  if (warm.status !== 201) throw new Error(`the warm-up upload answered ${warm.status}: ${warm.text}`);
  await sleep(5000);
  const baseline = memory(pid);
  log(`baseline RSS ${baseline.rss.toFixed(1)} MB`);

  // The burst.
  let peak = baseline.rss;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, memory(pid).rss);
    } catch {
      // the process is gone: reported below
    }
  }, 25);
  const statuses = new Map<number, number>();
  let refusals = 0;
  const t0 = performance.now();
  const firstAnswer: number[] = [];
  const results = await Promise.all(
    Array.from({ length: UPLOADS }, async (_, i) => {
      for (let attempt = 1; attempt <= 200; attempt++) {
        const r = await post().catch((err: Error) => ({ status: 0, retryAfter: 1, text: err.message }));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (attempt === 1) firstAnswer[i] = performance.now() - t0;
        if (r.status === 503) {
          refusals++;
          await sleep(r.retryAfter * 1000 + Math.random() * 1000);
          continue;
        }
        return { ...r, attempts: attempt, ms: performance.now() - t0 };
      }
      return { status: -1, text: 'gave up after 200 attempts', attempts: 200, ms: performance.now() - t0 };
    }),
  );
  const burstMs = performance.now() - t0;
  clearInterval(sampler);
  const done = memory(pid);
  peak = Math.max(peak, done.rss);
  log(
    `burst done in ${(burstMs / 1000).toFixed(1)} s; peak RSS ${peak.toFixed(1)} MB; RSS now ${done.rss.toFixed(1)} MB`,
  );
  const failed = results.filter((r) => r.status !== 201);
  if (failed.length)
    log(`${failed.length} uploads failed, e.g. ${failed[0]!.status} ${failed[0]!.text.slice(0, 200)}`);

  // At rest after it.
  const settle: { s: number; rss: number }[] = [];
  for (let s = 10; s <= 60; s += 10) {
    await sleep(10_000);
    settle.push({ s, rss: memory(pid).rss });
  }
  const after = settle.at(-1)!.rss;
  const hwm = memory(pid).hwm;
  const leftFiles = fs.readdirSync(uploadTmp).length;
  log(
    `after 60 s RSS ${after.toFixed(1)} MB (baseline ${baseline.rss.toFixed(1)} MB); ${leftFiles} temporary files left`,
  );

  // --- results ---
  const fmt = (n: number) => n.toFixed(1);
  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;
  const okMs = results.filter((r) => r.status === 201).map((r) => r.ms);
  const attempts = results.map((r) => r.attempts);
  const within = after - baseline.rss <= 100;
  const head = execText('git', ['-C', root, 'log', '-1', '--format=%h']);
  const section = `
### ${TITLE}

Run: \`npx tsx bench/uploads/uploads.ts --uploads ${UPLOADS} --mb ${MB}\` on ${new Date().toISOString().slice(0, 10)}, the branch at \`${head.replace(/`/g, "'")}\` (Node ${process.version}, ${os.cpus().length} cores, server on embedded PGlite in demo mode, \`UPLOAD_MAX_CONCURRENT\` ${process.env.UPLOAD_MAX_CONCURRENT ?? 'default'}).
Machine: ${marker}; load average (1 / 5 / 15 min) ${loadAtStart} at the start, ${loadAvg()} at the end (2 cores shared with other work).

| server RSS (MB)                        |                                     |
| -------------------------------------- | ----------------------------------: |
| at rest before (after one warm-up)     |                          ${fmt(baseline.rss)} |
| peak during the burst (25 ms samples)  |                          ${fmt(peak)} |
| when the last upload was answered      |                          ${fmt(done.rss)} |
| ${settle.map((x) => `${x.s} s later`).join(' / ')} | ${settle.map((x) => fmt(x.rss)).join(' / ')} |
| after (60 s later) minus before        | ${after - baseline.rss >= 0 ? '+' : ''}${fmt(after - baseline.rss)} (${within ? 'within' : 'NOT within'} 100 MB) |
| process peak since start (VmHWM)       |                          ${fmt(hwm)} |

Uploads: ${UPLOADS} clients at once, ${MB} MB each; ${results.filter((r) => r.status === 201).length} uploaded (201), ${failed.length} failed${failed.length ? ` (e.g. ${failed[0]!.status}: ${failed[0]!.text.slice(0, 120).replace(/\|/g, '/')})` : ''}.
Answers by status over all attempts: ${[...statuses.entries()].map(([s, n]) => `${s === 0 ? 'connection error' : s}: ${n}`).join(', ')}; ${refusals} refusals (503, each retried after its Retry-After).
Attempts per upload: median ${pct(attempts, 50)}, max ${Math.max(...attempts)}. First answer to a client: p50 ${fmt(pct(firstAnswer, 50))} ms, max ${fmt(Math.max(...firstAnswer))} ms.
All done in ${fmt(burstMs / 1000)} s${okMs.length ? ` (an upload's 201 p50 ${fmt(pct(okMs, 50) / 1000)} s, p95 ${fmt(pct(okMs, 95) / 1000)} s after the start)` : ''}; temporary upload files left: ${leftFiles}.
`;
  const results_md = path.join(here, 'RESULTS.md');
  writeSection(`uploads-${SECTION}`, section, results_md);
  const options = (await prettier.resolveConfig(results_md)) ?? {};
  fs.writeFileSync(
    results_md,
    await prettier.format(fs.readFileSync(results_md, 'utf8'), { ...options, filepath: results_md }),
  );
  log(`wrote section uploads-${SECTION} of bench/uploads/RESULTS.md`);
} catch (err) {
  console.error(err);
  console.error(out.slice(-3000));
  process.exitCode = 1;
} finally {
  server.kill('SIGTERM');
  await Promise.race([new Promise((r) => server.once('exit', r)), sleep(15_000)]);
  if (server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(uploadTmp, { recursive: true, force: true });
}

function execText(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/** Replaces the block between `<!-- name:start -->` and `<!-- name:end -->` of `file` (appended if absent). */
function writeSection(name: string, body: string, file: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Uploads benchmark\n';
  const block = `${start}\n${body.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text =
    i >= 0 && j > i
      ? text.slice(0, i) + block + text.slice(j + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, text);
}
