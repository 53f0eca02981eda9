/**
 * First load in Chromium: what the browser asks the API on startup with a 50,000-member workspace, and the
 * demo's cold load of Home, Analytics and Members.
 *
 *   npm run build -w apps/web
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/firstload/firstload.ts \
 *     [--port 3510] [--emulator-port 3599] [--members 50000] [--runs 5] [--keep | --reuse NAME] [--quick [--cpu]] [--throttle RATE] [--timeline] [--profile [DIR]] [--trace DIR] [--fibers]
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
 *    cache): 'fully loaded' = the network idle, no skeleton left and the page drawn, timed from the navigation
 *    start to the latest of the last response's end, the last skeleton's removal and the last change to the
 *    page. Target: < 1.0 s.
 * Writes bench/firstload/RESULTS.md (its tables; the sessions' readings below them stay), with a CPU marker (a
 * fixed loop's time) so runs on different machines can be compared.
 *
 * To look closer: --quick (the demo's first visits only, nothing written: to compare two builds), --cpu (with
 * --quick: each process's CPU time from a load's navigation to fully loaded, Chromium's by process type),
 * --throttle RATE (the page's CPU RATE times slower, as on a slower machine), --timeline (each resource's timing
 * and each change to the page), --profile (CPU profile), --trace (Chromium
 * trace; TRACE_CATEGORIES=a,b adds categories), --fibers (React's commits: components in the tree and rendered).
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
const THROTTLE = Number(arg('throttle', '1'));
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

/**
 * CPU time (user + system, ms) used so far by the machine's processes, by command (Chromium's by process type,
 * the server's own, this script's), for --cpu.
 */
function cpuByCommand(): Map<string, number> {
  const out = new Map<string, number>();
  const tick = 1000 / 100;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      let name =
        Number(pid) === server.pid || ppid === server.pid
          ? 'server (node)'
          : Number(pid) === process.pid
            ? 'bench (Playwright)'
            : comm.replace(/^kworker\/.*$/, 'kernel workers');
      if (comm === 'chromium') {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        const t = /--type=([a-z-]+)/.exec(cmdline);
        const sub = /--utility-sub-type=([a-zA-Z.]+)/.exec(cmdline);
        name = `chromium:${t ? t[1] : 'browser'}${sub ? `:${sub[1]}` : ''}`;
      }
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * tick);
    } catch {
      // gone
    }
  }
  return out;
}

/** CPU time (ms) each process used between two moments (epoch ms), from the samples around them. */
function cpuWindow(samples: { at: number; cpu: Map<string, number> }[], from: number, to: number) {
  const before = [...samples].reverse().find((s) => s.at <= from) ?? samples[0]!;
  const after = samples.find((s) => s.at >= to) ?? samples.at(-1)!;
  const out = new Map<string, number>();
  for (const [k, v] of after.cpu) out.set(k, v - (before.cpu.get(k) ?? 0));
  out.set('(wall)', after.at - before.at);
  return out;
}
const cpuWindows: Map<string, number>[] = [];

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
  // A string, not a function: tsx would wrap the function's inner functions in its `__name` helper, which the
  // page does not have (the script would stop at the first one).
  await context.addInitScript(`
    const s = ${JSON.stringify(session)};
    localStorage.setItem('flywheel.session', JSON.stringify(s));
    localStorage.setItem('userdata', JSON.stringify({ userid: s.userid, useremail: s.useremail }));
    // The moment the last skeleton left the page, and the moment the page last changed (the render that draws
    // the data, an image coming in, ...).
    window.__skeletonGone = 0;
    window.__lastChange = 0;
    window.__changes = [];
    window.__changeLog = [];
    new MutationObserver(function (records) {
      window.__lastChange = performance.now();
      window.__changes.push([Math.round(window.__lastChange), records.length]);
      // What changed, for --timeline: the record's kind and target (tag, first class), its attribute, the
      // nodes it added.
      for (var i = 0; i < records.length && window.__changeLog.length < 400; i++) {
        var r = records[i], t = r.target;
        var what = t.nodeType === 1 ? t.tagName.toLowerCase() + (t.classList && t.classList[0] ? '.' + t.classList[0] : '') : t.nodeName;
        var added = Array.prototype.map.call(r.addedNodes, function (n) {
          return n.nodeType === 1 ? n.tagName.toLowerCase() + (n.classList && n.classList[0] ? '.' + n.classList[0] : '') : n.nodeName;
        }).join(',');
        window.__changeLog.push(Math.round(window.__lastChange) + ' ' + r.type + ' ' + what + (r.attributeName ? ' @' + r.attributeName : '') + (added ? ' +' + added : '') + (r.removedNodes.length ? ' -' + r.removedNodes.length : ''));
      }
      if (document.querySelector('.mantine-Skeleton-root')) window.__skeletonGone = -1;
      else if (window.__skeletonGone === -1) window.__skeletonGone = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true });
  `);
  // --block PATTERN (an experiment): requests whose path has PATTERN fail, to see what a file costs a load.
  const block = process.argv.includes('--block') ? arg('block', '') : '';
  if (block)
    await context.route(
      (u) => u.pathname.includes(block),
      (r) => r.abort(),
    );
  const page = await context.newPage();
  // --throttle RATE: the page's renderer runs RATE times slower (DevTools' CPU throttling), to see what a slower
  // machine would show. The server, the database and Chromium's other processes keep their speed.
  if (THROTTLE > 1)
    await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await settled(browser);
  return page;
}

/**
 * Waits until Chromium is idle. A new context opens a window whose own UI (a 'top-chrome' renderer) takes
 * ~0.7 s of CPU in its first second: measured right away, a load would share the 2 cores with it, which a
 * user loading the page in an open browser does not.
 */
async function settled(browser: Browser) {
  const cdp = await browser.newBrowserCDPSession();
  const cpu = async () => {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { cpuTime: number }[];
    };
    return processInfo.reduce((sum, p) => sum + p.cpuTime, 0);
  };
  const deadline = Date.now() + 5_000;
  let last = await cpu();
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await cpu();
    // Under 4% of a core over the last quarter second.
    if (now - last < 0.01 || Date.now() > deadline) break;
    last = now;
  }
  await cdp.detach();
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

/**
 * A cold load (the app's code starts from nothing): navigation start to network idle with no skeleton. In a
 * fresh context (empty HTTP cache), or for a returning user (`cached`) in a context that loaded the page
 * before, so the browser has its files.
 */
async function coldLoad(browser: Browser, l: Login, teamId: string, pagePath: string, cached = false) {
  const page = await signedInPage(browser, l, teamId);
  for (let i = 0; cached && i < Number(arg('visits', '1')); i++) {
    await page.goto(`${BASE}${pagePath}`, { waitUntil: 'networkidle' });
    await page.goto('about:blank');
    await settled(browser);
  }
  // --cpu: the machine's processes' CPU time sampled every 25 ms through the load (cpuWindow below).
  const samples: { at: number; cpu: Map<string, number> }[] = [];
  const sampler = process.argv.includes('--cpu')
    ? setInterval(() => samples.push({ at: Date.now(), cpu: cpuByCommand() }), 25)
    : undefined;
  await page.goto(`${BASE}${pagePath}`, { waitUntil: 'networkidle' });
  clearInterval(sampler);
  await page.waitForFunction(() => !document.querySelector('.mantine-Skeleton-root'), null, {
    timeout: 30_000,
  });
  await page.waitForLoadState('networkidle');
  const t = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const lastResponse = Math.max(0, ...entries.map((e) => e.responseEnd));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const w = window as unknown as { __skeletonGone: number; __lastChange: number };
    return {
      lastResponse,
      skeletonGone: Math.max(0, w.__skeletonGone),
      lastChange: w.__lastChange,
      domContentLoaded: nav.domContentLoadedEventEnd,
      api: entries.filter((e) => e.name.includes('/api/v0/')).length,
    };
  });
  const origin = await page.evaluate(() => performance.timeOrigin);
  await page.context().close();
  const fully = Math.max(t.lastResponse, t.skeletonGone, t.lastChange, t.domContentLoaded);
  if (samples.length) cpuWindows.push(cpuWindow(samples, origin, origin + fully));
  return { ...t, fully };
}

/**
 * How fast this machine's CPU is, to compare runs across machines: one core's time for a fixed loop (the best of
 * three). Machines of the same kind have differed by ~3x here.
 */
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
  for (let i = 0; i < (process.argv.includes('--quick') ? 0 : RUNS); i++)
    runs.push(await startupCalls(browser, l, TEAM, '/dashboard/home'));
  const byPath = new Map<string, Call[]>();
  for (const run of runs)
    for (const call of run) byPath.set(call.path, [...(byPath.get(call.path) ?? []), call]);
  const totals = runs.map((run) => run.reduce((s, c) => s + c.bytes, 0));
  const uptimeAtCalls = execSync('uptime').toString().trim();

  const pages = ['/dashboard/home', '/dashboard/analytics', '/dashboard/members'];
  if (process.argv.includes('--timeline')) {
    // One cold load per page, every resource it fetched (ms from the navigation): asked for, request sent (after
    // waiting for a connection), first byte, last byte; and its size.
    for (const p of pages) {
      const page = await signedInPage(browser, l, demoTeam);
      await page.goto(`${BASE}${p}`, { waitUntil: 'networkidle' });
      const rows = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
          (e) =>
            [e.startTime, e.requestStart, e.responseStart, e.responseEnd]
              .map((t) => t.toFixed(0).padStart(6))
              .join(' ') +
            ` ${(e.encodedBodySize / 1024).toFixed(1).padStart(7)} KB  ${new URL(e.name).pathname}`,
        ),
      );
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const w = window as unknown as { __changes: [number, number][] };
        return {
          html: `${n.responseStart.toFixed(0)}-${n.responseEnd.toFixed(0)}`,
          domInteractive: Math.round(n.domInteractive),
          domContentLoaded: Math.round(n.domContentLoadedEventEnd),
          paints: performance.getEntriesByType('paint').map((e) => `${e.name} ${e.startTime.toFixed(0)}`),
          changes: w.__changes.map(([t, n]) => `${t}:${n}`).join(' '),
          // The changes after the render that drew the most at once (what made the page change again).
          after: (() => {
            const [at] = w.__changes.reduce((a, b) => (b[1] > a[1] ? b : a), [0, 0]);
            return (window as unknown as { __changeLog: string[] }).__changeLog.filter(
              (c) => Number(c.split(' ')[0]) > at,
            );
          })(),
        };
      });
      console.log(`\n${p}\n${JSON.stringify(nav, null, 1)}\n${rows.join('\n')}`);
      await page.context().close();
    }
  }
  if (process.argv.includes('--profile')) {
    // One cold load per page under Chromium's sampling profiler: main-thread time per script file and the
    // heaviest functions (write the raw .cpuprofile files with --profile DIR to open them in DevTools).
    const dir = arg('profile', '');
    for (const p of pages) {
      const page = await signedInPage(browser, l, demoTeam);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await page.goto(`${BASE}${p}`, { waitUntil: 'networkidle' });
      const { profile } = await cdp.send('Profiler.stop');
      if (dir && !dir.startsWith('--')) {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, `${p.split('/').pop()}.cpuprofile`), JSON.stringify(profile));
      }
      const dt = new Map<number, number>();
      profile.samples!.forEach((id, i) =>
        dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas![i] ?? 0) / 1000),
      );
      const byFile = new Map<string, number>();
      const byFn = new Map<string, number>();
      for (const n of profile.nodes) {
        const ms = dt.get(n.id) ?? 0;
        const file = n.callFrame.url
          ? new URL(n.callFrame.url).pathname
          : `(${n.callFrame.functionName || 'program'})`;
        byFile.set(file, (byFile.get(file) ?? 0) + ms);
        const fn = `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
        byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
      }
      const top = (m: Map<string, number>, k: number) =>
        [...m.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, k)
          .map(([name, ms]) => `${ms.toFixed(0).padStart(6)} ms  ${name}`)
          .join('\n');
      const total = [...dt.values()].reduce((a, b) => a + b, 0);
      console.log(`\n${p}: ${total.toFixed(0)} ms sampled\n${top(byFile, 15)}\n--\n${top(byFn, 25)}`);
      await page.context().close();
    }
  }
  if (process.argv.includes('--fibers')) {
    // One cold load per page with a stand-in for React DevTools' hook: each commit's components counted by
    // type (Mantine's keep their display names; the app's own are minified), the heaviest types of the
    // largest commit listed.
    for (const p of pages) {
      const page = await signedInPage(browser, l, demoTeam);
      // A string: tsx's compiled functions call a helper the page does not have.
      await page.addInitScript(`
        window.__commits = [];
        var name = function (t) {
          if (typeof t === 'string') return '<' + t + '>';
          if (typeof t === 'function') return t.displayName || t.name || '(fn)';
          if (t && typeof t === 'object')
            return t.displayName || (t.render ? 'fwd(' + name(t.render) + ')' : t.type ? 'memo(' + name(t.type) + ')' : '(obj)');
          return '(host)';
        };
        window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
          supportsFiber: true,
          renderers: new Map(),
          inject: function () { return 1; },
          onCommitFiberRoot: function (_id, root) {
            // Every component in the tree after the commit: a cold load renders the page once.
            // Rendered: the components that ran in this commit, by type: a fiber React cloned for it (not in the
            // previous commit's tree) with its PerformedWork flag (reset on every clone).
            var seen = new WeakSet(), before = window.__fibers || new WeakSet();
            var types = {}, total = 0, rendered = 0, ran = {}, stack = root.current.child ? [root.current.child] : [];
            while (stack.length) {
              var f = stack.pop();
              total++;
              var n = name(f.elementType || f.type);
              types[n] = (types[n] || 0) + 1;
              seen.add(f);
              if (f.flags & 1 && !before.has(f)) { rendered++; ran[n] = (ran[n] || 0) + 1; }
              if (f.sibling) stack.push(f.sibling);
              if (f.child) stack.push(f.child);
            }
            window.__fibers = seen;
            window.__commits.push({ at: Math.round(performance.now()), total: total, rendered: rendered, ran: ran, types: types });
          },
          onCommitFiberUnmount: function () {},
          onPostCommitFiberRoot: function () {},
          checkDCE: function () {},
        };
      `);
      await page.goto(`${BASE}${p}`, { waitUntil: 'networkidle' });
      const commits = await page.evaluate(
        () =>
          (
            window as unknown as {
              __commits: {
                at: number;
                total: number;
                rendered: number;
                ran: Record<string, number>;
                types: Record<string, number>;
              }[];
            }
          ).__commits,
      );
      const largest = commits.reduce((a, b) => (b.rendered > a.rendered ? b : a), commits[0]!);
      const top = Object.entries(largest.types)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 30)
        .map(([n, c]) => `${String(c).padStart(6)}  ${n}`)
        .join('\n');
      console.log(
        `\n${p}: ${commits.length} commits (at ms: components in the tree / that rendered: ${commits.map((c) => `${c.at}:${c.total}/${c.rendered}`).join(' ')})\n${top}`,
      );
      for (const c of commits.filter((c) => c !== largest && c.rendered > 0)) {
        const ran = Object.entries(c.ran)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 14);
        console.log(`  commit at ${c.at}: ${ran.map(([n, k]) => `${n} ${k}`).join(', ')}`);
      }
      await page.context().close();
    }
  }
  if (process.argv.includes('--trace')) {
    // One cold load per page under Chromium's tracing (open the files in DevTools' Performance panel), and the
    // renderer main thread's time per kind of work (script, style, layout, paint, parse, ...).
    const dir = arg('trace', '/tmp/firstload-trace');
    fs.mkdirSync(dir, { recursive: true });
    for (const p of pages) {
      const page = await signedInPage(browser, l, demoTeam);
      const file = path.join(dir, `${p.split('/').pop()}.json`);
      await browser.startTracing(page, {
        path: file,
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8.execute',
          'blink.user_timing',
          ...(process.env.TRACE_CATEGORIES ?? '').split(',').filter(Boolean),
        ],
      });
      await page.goto(`${BASE}${p}`, { waitUntil: 'networkidle' });
      await browser.stopTracing();
      await page.context().close();
      console.log(`trace: ${file}`);
    }
  }
  await coldLoad(browser, l, demoTeam, '/dashboard/home');
  type Loads = Record<string, Awaited<ReturnType<typeof coldLoad>>[]>;
  const measure = async (teamId: string, returning: boolean) => {
    const out: Loads = {};
    for (const p of pages) {
      out[p] = [];
      for (let i = 0; i < RUNS; i++) out[p].push(await coldLoad(browser!, l, teamId, p, returning));
      console.log(
        teamId,
        returning ? 'returning' : 'first visit',
        p,
        out[p].map((r) => r.fully.toFixed(0)).join(' '),
      );
    }
    return out;
  };
  const cold = await measure(demoTeam, false);
  if (process.argv.includes('--cpu')) {
    const sum = new Map<string, number>();
    for (const w of cpuWindows) for (const [k, v] of w) sum.set(k, (sum.get(k) ?? 0) + v / cpuWindows.length);
    console.log(
      `CPU per load from its navigation to fully loaded (ms, mean): ${[...sum]
        .filter(([, v]) => v >= 5)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    );
  }
  if (process.argv.includes('--quick')) {
    // --quick: the demo's first visits only, to compare builds (nothing written).
    const p50 = pages.map((p) =>
      pct(
        cold[p]!.map((r) => r.fully),
        50,
      ).toFixed(0),
    );
    console.log(
      `first visit p50: ${p50.join(' / ')} ms${THROTTLE > 1 ? ` (CPU throttled ${THROTTLE}x)` : ''}; ${cpuMarker()}; ${execSync('uptime').toString().trim()}`,
    );
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
  const coldReturning = await measure(demoTeam, true);
  // The 50,000-member workspace's pages too (not the target, for comparison).
  const cold50k = await measure(TEAM, false);
  const uptimeAtLoads = execSync('uptime').toString().trim();
  const marker = cpuMarker();

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
      ).toFixed(0)} | ${pct(
        set[p]!.map((r) => r.lastChange),
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
    `First visit: each load in a fresh browser context (empty cache, session already stored). Fully loaded = network idle, no skeleton, and the page drawn: the latest of the last response's end, the last skeleton's removal and the last change to the page (a MutationObserver: the render that draws the data, an image's arrival), from the navigation start. ${RUNS} loads each.`,
    '',
    '| page | API calls | fully loaded p50 ms | max ms | last response p50 ms | last change p50 ms | last skeleton gone p50 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...coldRows(cold),
    '',
    `A returning user: the same, in a browser context that loaded the page before (its HTTP cache holds the page's files; the app's code still starts from nothing):`,
    '',
    '| page | API calls | fully loaded p50 ms | max ms | last response p50 ms | last change p50 ms | last skeleton gone p50 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...coldRows(coldReturning),
    '',
    `A first visit of the same pages of the ${MEMBERS.toLocaleString('en')}-member workspace, for comparison:`,
    '',
    '| page | API calls | fully loaded p50 ms | max ms | last response p50 ms | last change p50 ms | last skeleton gone p50 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...coldRows(cold50k),
    '',
    `Load: \`${uptimeAtLoads}\` (2 cores, shared with other work: the figures move with the load). Machine: ${marker}${THROTTLE > 1 ? `; the page's CPU throttled ${THROTTLE}x` : ''}.`,
    '',
  ].join('\n');
  const out = path.join(here, 'RESULTS.md');
  // The sessions' readings below the tables ('## Reading …') stay.
  const before = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  const readings = before.indexOf('\n## Reading');
  const formatted = await prettier.format(md + (readings >= 0 ? before.slice(readings) : ''), {
    ...(await prettier.resolveConfig(out)),
    filepath: out,
  });
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
