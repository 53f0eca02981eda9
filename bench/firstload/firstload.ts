/**
 * First load in Chromium: what the browser asks the API on startup with a 50,000-member workspace, and the
 * demo's cold load of Home, Analytics and Members.
 *
 *   npm run build -w apps/web
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/firstload/firstload.ts \
 *     [--port 3510] [--emulator-port 3599] [--members 50000] [--runs 5] [--keep | --reuse NAME] [--timeline]
 *
 * 1. A scratch PostgreSQL database gets the real migrations and the members bench's generated 50,000-member
 *    workspace (bench/members/seed.ts: members, channels, memberships, rollups written straight into the
 *    tables).
 * 2. The real server (`apps/server/src/main.ts`: built SPA + API + workers) starts on it in demo mode: it
 *    connects the demo workspace (500 members, through the emulator's install and history import) and
 *    creates the demo administrator, who is then made an admin of the 50,000-member workspace too.
 * 3. Chromium (Playwright) signs in and loads Home of the 50,000-member workspace: every /api/v0 call from
 *    the navigation to network idle, with its size (transferred body) and time (request start to response
 *    end). Target: together under 300 KB, each under 300 ms.
 * 4. Cold loads of the demo workspace's Home, Analytics and Members, each in a fresh browser context (empty
 *    cache): 'fully loaded' = the network idle and no skeleton left, timed from the navigation start to the
 *    later of the last response's end and the last skeleton's removal. Target: < 1.0 s.
 * Writes bench/firstload/RESULTS.md.
 */
import { spawn, execSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as prettier from 'prettier';
import { chromium, type Browser, type Page } from 'playwright';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { seedActivity, seedTags } from '../members/seed.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const PORT = Number(arg('port', process.env.E2E_PORT ?? '3510'));
const EMULATOR_PORT = Number(arg('emulator-port', process.env.E2E_EMULATOR_PORT ?? '3599'));
const MEMBERS = Number(arg('members', '50000'));
const RUNS = Number(arg('runs', '5'));
const TEAM = 'TBENCH0001';
const BASE = `http://127.0.0.1:${PORT}`;
const DEMO = { email: 'demo@flywheel.local', password: 'flywheel-demo' };

const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!base) throw new Error('Set TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres)');
const reuse = process.argv.includes('--reuse') ? arg('reuse', '') : undefined;
const dbName = reuse ?? `flywheel_firstload_${crypto.randomBytes(4).toString('hex')}`;
const dbUrl = new URL(base);
dbUrl.pathname = `/${dbName}`;

async function admin(sqlText: string) {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(sqlText);
  await c.end();
}

async function seed() {
  if (reuse) return;
  await admin(`create database ${dbName}`);
  const database = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 4 });
  try {
    await database.migrate();
    const t0 = performance.now();
    const opts = { team: TEAM, members: MEMBERS, channels: 40, days: 400 };
    await seedActivity(database.db, opts);
    await seedTags(database.db, opts);
    console.log(`seeded ${MEMBERS} members in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    await database.close();
  }
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

type Login = {
  token: string;
  userid: string;
  workspaces: { team_id: string }[];
  username: string;
  email: string;
  country: string;
};

async function login(): Promise<Login> {
  const res = await fetch(`${BASE}/api/v0/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  if (!res.ok) throw new Error(`login ${res.status}`);
  return (await res.json()) as Login;
}

/** The session the web app keeps in localStorage (apps/web/src/lib/session.ts). */
function sessionOf(l: Login, teamId: string) {
  const exp = JSON.parse(Buffer.from(l.token.split('.')[1]!, 'base64url').toString()).exp as number;
  return {
    userid: l.userid,
    token: l.token,
    currentworkspace: teamId,
    workspace: l.workspaces,
    username: l.username,
    useremail: l.email,
    country: l.country,
    expiration: new Date(exp * 1000).toISOString(),
  };
}

async function signedInPage(browser: Browser, l: Login, teamId: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const session = sessionOf(l, teamId);
  await context.addInitScript(
    ([s]) => {
      localStorage.setItem('flywheel.session', JSON.stringify(s));
      localStorage.setItem('userdata', JSON.stringify({ userid: s.userid, useremail: s.useremail }));
      // The moment the last skeleton left the page.
      const w = window as unknown as { __skeletonGone: number };
      w.__skeletonGone = 0;
      const seen = () => {
        if (document.querySelector('.mantine-Skeleton-root')) w.__skeletonGone = -1;
        else if (w.__skeletonGone === -1) w.__skeletonGone = performance.now();
      };
      new MutationObserver(seen).observe(document, { subtree: true, childList: true, attributes: true });
    },
    [session] as const,
  );
  return context.newPage();
}

type Call = { path: string; status: number; bytes: number; ms: number; serverMs: number };

/** Every /api/v0 call from the navigation to network idle. */
async function startupCalls(browser: Browser, l: Login, teamId: string, pagePath: string) {
  const page = await signedInPage(browser, l, teamId);
  const calls: Promise<Call | null>[] = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/v0/')) return;
    calls.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        const t = request.timing();
        const timing = /dur=([\d.]+)/.exec((await response?.allHeaders())?.['server-timing'] ?? '');
        return {
          path: `${request.method()} ${url.pathname}${url.search}`,
          status: response?.status() ?? 0,
          bytes: sizes.responseBodySize,
          ms: t.responseEnd,
          serverMs: timing ? Number(timing[1]) : NaN,
        };
      })().catch(() => null),
    );
  });
  await page.goto(`${BASE}${pagePath}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(300);
  const out = (await Promise.all(calls)).filter((c): c is Call => c !== null);
  await page.context().close();
  return out;
}

/** Cold load in a fresh context: navigation start to network idle with no skeleton. */
async function coldLoad(browser: Browser, l: Login, teamId: string, pagePath: string) {
  const page = await signedInPage(browser, l, teamId);
  await page.goto(`${BASE}${pagePath}`, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => !document.querySelector('.mantine-Skeleton-root'), null, {
    timeout: 30_000,
  });
  await page.waitForLoadState('networkidle');
  const t = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const lastResponse = Math.max(0, ...entries.map((e) => e.responseEnd));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const gone = (window as unknown as { __skeletonGone: number }).__skeletonGone;
    return {
      lastResponse,
      skeletonGone: Math.max(0, gone),
      domContentLoaded: nav.domContentLoadedEventEnd,
      api: entries.filter((e) => e.name.includes('/api/v0/')).length,
    };
  });
  await page.context().close();
  return { ...t, fully: Math.max(t.lastResponse, t.skeletonGone, t.domContentLoaded) };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;

await seed();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-firstload-'));
const server = spawn(
  process.execPath,
  [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'apps/server/src/main.ts'],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE,
      DATABASE_URL: dbUrl.toString(),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_EMULATOR_PORT: String(EMULATOR_PORT),
      DEMO_LIVE_INTERVAL_MS: '0',
      LOGIN_MAX_PER_IP: '1000',
    },
  },
);
let browser: Browser | undefined;
try {
  await waitFor(
    'the server',
    async () => ((await fetch(`${BASE}/api/health`)).ok ? true : undefined),
    120_000,
  );
  const first = await waitFor('the demo administrator', login, 120_000);
  const demoTeam = first.workspaces[0]!.team_id;
  await waitFor(
    'the demo history import',
    async () => {
      const res = await fetch(`${BASE}/api/v0/workspaces/status/${demoTeam}`, {
        headers: { authorization: `Bearer ${first.token}` },
      });
      const s = (await res.json()) as { backfill: { status: string } | null };
      return s.backfill?.status === 'done' ? true : undefined;
    },
    600_000,
  );
  // The demo administrator administers the 50,000-member workspace too.
  const c = new pg.Client({ connectionString: dbUrl.toString() });
  await c.connect();
  await c.query(`insert into workspace_admins (team_id, user_id) values ($1, $2) on conflict do nothing`, [
    TEAM,
    first.userid,
  ]);
  await c.end();
  const l = await login();

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  // Warm the server (JIT, caches) as any running server is, then measure.
  await startupCalls(browser, l, TEAM, '/dashboard/home');
  const runs: Call[][] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await startupCalls(browser, l, TEAM, '/dashboard/home'));
  const byPath = new Map<string, Call[]>();
  for (const run of runs)
    for (const call of run) byPath.set(call.path, [...(byPath.get(call.path) ?? []), call]);
  const totals = runs.map((run) => run.reduce((s, c) => s + c.bytes, 0));
  const uptimeAtCalls = execSync('uptime').toString().trim();

  const pages = ['/dashboard/home', '/dashboard/analytics', '/dashboard/members'];
  if (process.argv.includes('--timeline')) {
    // One cold load per page, every resource it fetched: start and end (ms from the navigation), size.
    for (const p of pages) {
      const page = await signedInPage(browser, l, demoTeam);
      await page.goto(`${BASE}${p}`, { waitUntil: 'networkidle' });
      const rows = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
          (e) =>
            `${e.startTime.toFixed(0).padStart(6)} ${e.responseEnd.toFixed(0).padStart(6)} ${(e.encodedBodySize / 1024).toFixed(1).padStart(7)} KB  ${new URL(e.name).pathname}`,
        ),
      );
      console.log(`\n${p}\n${rows.join('\n')}`);
      await page.context().close();
    }
  }
  await coldLoad(browser, l, demoTeam, '/dashboard/home');
  const cold: Record<string, ReturnType<typeof coldLoad> extends Promise<infer T> ? T[] : never> = {};
  for (const p of pages) {
    cold[p] = [];
    for (let i = 0; i < RUNS; i++) cold[p].push(await coldLoad(browser, l, demoTeam, p));
    console.log(p, cold[p].map((r) => r.fully.toFixed(0)).join(' '));
  }
  // The 50,000-member workspace's pages too (not the target, for comparison).
  const cold50k: typeof cold = {};
  for (const p of pages) {
    cold50k[p] = [];
    for (let i = 0; i < RUNS; i++) cold50k[p].push(await coldLoad(browser, l, TEAM, p));
  }
  const uptimeAtLoads = execSync('uptime').toString().trim();

  const kb = (b: number) => (b / 1024).toFixed(1);
  const rows = [...byPath.entries()].map(([p, calls]) => {
    const ms = calls.map((c) => c.ms);
    const server = calls.map((c) => c.serverMs).filter((x) => !Number.isNaN(x));
    const serverCols = server.length
      ? `${pct(server, 50).toFixed(0)} | ${Math.max(...server).toFixed(0)}`
      : '– | –';
    return `| \`${p}\` | ${calls.length} | ${calls[0]!.status} | ${kb(Math.max(...calls.map((c) => c.bytes)))} | ${serverCols} | ${pct(ms, 50).toFixed(0)} | ${Math.max(...ms).toFixed(0)} |`;
  });
  const worst = Math.max(...runs.flat().map((c) => c.ms));
  const worstServer = Math.max(...runs.flat().flatMap((c) => (Number.isNaN(c.serverMs) ? [] : [c.serverMs])));
  // 0: no skeleton was drawn in that load.
  const skeleton = (xs: number[]) => (xs.every((x) => x === 0) ? 'none shown' : pct(xs, 50).toFixed(0));
  const coldRows = (set: typeof cold) =>
    pages.map((p) => {
      const f = set[p]!.map((r) => r.fully);
      return `| ${p} | ${set[p]![0]!.api} | ${pct(f, 50).toFixed(0)} | ${Math.max(...f).toFixed(0)} | ${pct(
        set[p]!.map((r) => r.lastResponse),
        50,
      ).toFixed(0)} | ${skeleton(set[p]!.map((r) => r.skeletonGone))} |`;
    });
  const md = [
    '# First load benchmark',
    '',
    `Run: \`TEST_DATABASE_URL=… npx tsx bench/firstload/firstload.ts\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, Chromium via Playwright, 1440×900; the built web app served by the real server as \`npm start\` runs it, on PostgreSQL).`,
    '',
    `Data: the members bench's generated workspace (${MEMBERS.toLocaleString('en')} members, 40 channels, 400 days of rollups: bench/members/seed.ts) and the demo workspace (500 members, 20 channels, 120 days, imported through the emulator), both in one database.`,
    '',
    `## Startup calls of Home with ${MEMBERS.toLocaleString('en')} members (target: together < 300 KB, each < 300 ms)`,
    '',
    `Every /api/v0 call from the navigation to network idle, ${RUNS} loads after a warm-up (each in a fresh browser context). Size: the response body as transferred. Server: the time the server took over the call (its Server-Timing header). Browser: request start to response end as Chromium measured it, which also counts the time the request waited for one of the six connections or for the page's busy main thread.`,
    '',
    '| call | loads | status | KB | server p50 ms | server max ms | browser p50 ms | browser max ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Together: ${kb(Math.max(...totals))} KB at most per load; the slowest call took the server ${worstServer.toFixed(0)} ms (${worst.toFixed(0)} ms in the browser). \`GET /members/getmembers\` is not among them (it answered ~17 MB at 50,000 members on every load before).`,
    '',
    `Load: \`${uptimeAtCalls}\``,
    '',
    `## Cold load of the demo (target: fully loaded < 1.0 s)`,
    '',
    `Each load in a fresh browser context (empty cache, session already stored). Fully loaded = network idle and no skeleton: the later of the last response's end and the last skeleton's removal, from the navigation start. ${RUNS} loads each.`,
    '',
    '| page | API calls | fully loaded p50 ms | max ms | last response p50 ms | last skeleton gone p50 ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...coldRows(cold),
    '',
    `The same pages of the ${MEMBERS.toLocaleString('en')}-member workspace, for comparison:`,
    '',
    '| page | API calls | fully loaded p50 ms | max ms | last response p50 ms | last skeleton gone p50 ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...coldRows(cold50k),
    '',
    `Load: \`${uptimeAtLoads}\` (2 cores, shared with other work: the figures move with the load).`,
    '',
  ].join('\n');
  const out = path.join(here, 'RESULTS.md');
  const formatted = await prettier.format(md, { ...(await prettier.resolveConfig(out)), filepath: out });
  if (!process.argv.includes('--no-write')) fs.writeFileSync(out, formatted);
  console.log(md);
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (!reuse && !process.argv.includes('--keep'))
    await admin(`drop database if exists ${dbName} with (force)`);
  else console.log(`kept database ${dbName}`);
}
