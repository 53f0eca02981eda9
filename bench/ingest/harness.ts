/**
 * Shared plumbing for the ingestion benchmarks: the real server (createContext + buildApp, listening on a
 * loopback port, with its job workers) on a scratch PostgreSQL database or a PGlite directory, a signed-in
 * admin, and an install through the OAuth path against the emulator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { createContext, type AppContext } from '../../apps/server/src/context.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { createLogger } from '../../apps/server/src/lib/logger.ts';

export type DbKind = 'postgres' | 'pglite';
/** What the server needs of the emulator (the in-process handle, or a facade over a child process). */
export type EmuLike = {
  app: { clientId: string; clientSecret: string; signingSecret: string };
  apiUrl: string;
  authorizeUrl: string;
  setEventsUrl(url: string): Promise<boolean>;
};
export type Server = {
  ctx: AppContext;
  url: string;
  kind: DbKind;
  /** The environment another process needs to join this server (same database and secrets). */
  env: Record<string, string>;
  close(): Promise<void>;
};

export const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database on the PostgreSQL server at PG_BASE, dropped by the returned function. */
async function scratchPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `flywheel_bench_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_BASE });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Starts the whole server (API + workers) on `kind`, wired to the emulator's app credentials and URLs. */
export async function startServer(
  kind: DbKind,
  emu: EmuLike,
  env: Record<string, string> = {},
  opts: {
    workers?: boolean;
    /** An existing PostgreSQL database to serve (kept at close). */ databaseUrl?: string;
  } = {},
): Promise<Server> {
  const scratch =
    kind === 'postgres'
      ? opts.databaseUrl
        ? { url: opts.databaseUrl, drop: async () => {} }
        : await scratchPostgres()
      : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-bench-'));
  const serverEnv: Record<string, string> = {
    NODE_ENV: 'development',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST: '/nonexistent',
    DATA_DIR: dataDir,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
    SLACK_CLIENT_ID: emu.app.clientId,
    SLACK_CLIENT_SECRET: emu.app.clientSecret,
    SLACK_SIGNING_SECRET: emu.app.signingSecret,
    SLACK_API_URL: emu.apiUrl,
    SLACK_AUTHORIZE_URL: emu.authorizeUrl,
    ...env,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  };
  const config = loadConfig(serverEnv);
  const database = await openDatabase(
    scratch ? { databaseUrl: scratch.url } : { pgliteDir: path.join(dataDir, 'pglite') },
  );
  const ctx = await createContext(config, { database, logger: createLogger(config.logLevel) });
  if (opts.workers !== false) await ctx.startWorkers();
  const app = await buildApp(ctx);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  if (!(await emu.setEventsUrl(`${url}/slack/events`))) throw new Error('url_verification failed');
  return {
    ctx,
    url,
    kind,
    env: serverEnv,
    async close() {
      await app.close();
      await ctx.close();
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function query<T>(s: Server, q: SQL): Promise<T[]> {
  return ((await s.ctx.database.db.execute(q)) as unknown as { rows: T[] }).rows;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-side reads of known responses
async function json(res: Response, want = 200): Promise<any> {
  const body: unknown = await res.json().catch(() => ({}));
  if (res.status !== want) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** Signs up, verifies through the development outbox and logs in, all over HTTP. */
export async function signedInAdmin(s: Server): Promise<{ token: string; userid: string }> {
  const email = `bench.${Date.now().toString(36)}@example.com`;
  const password = 'correct horse battery';
  await json(
    await post(`${s.url}/api/v0/auth/signup`, {
      email,
      password,
      username: 'Bench Admin',
      country: 'Germany',
    }),
    201,
  );
  let link: string | undefined;
  for (let i = 0; i < 600 && !link; i++) {
    const out = await json(await fetch(`${s.url}/api/dev/outbox?to=${encodeURIComponent(email)}`));
    link = out.messages?.[0]?.links?.[0];
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  if (!link) throw new Error('no verification mail');
  await json(
    await post(`${s.url}/api/v0/auth/verifyemail`, { token: new URL(link).searchParams.get('token') }),
  );
  const login = await json(await post(`${s.url}/api/v0/auth/login`, { email, password }));
  return { token: login.token, userid: login.userid };
}

/** The browser's part of an install: authorize URL, Allow on the emulator's page as `owner`, /auth-redirect. */
export async function installThroughOAuth(
  s: Server,
  emulatorUrl: string,
  owner: string,
  user: { token: string; userid: string },
  teamId: string,
): Promise<void> {
  const auth = { authorization: `Bearer ${user.token}` };
  const { url } = await json(await fetch(`${s.url}/api/v0/slack/installurl`, { headers: auth }));
  const authorize = new URL(url);
  const allow = await fetch(`${emulatorUrl}/oauth/v2/authorize`, {
    method: 'POST',
    body: new URLSearchParams({
      ...Object.fromEntries(authorize.searchParams),
      team: teamId,
      installer: owner,
      decision: 'allow',
    }),
    redirect: 'manual',
  });
  if (allow.status !== 302) throw new Error(`authorize answered ${allow.status}`);
  const back = new URL(allow.headers.get('location')!);
  await json(
    await post(`${s.url}/api/v0/auth-redirect`, {
      id: user.userid,
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    }),
  );
}

export type BackfillRow = {
  status: string;
  messages: number;
  requests: number;
  rate_limited: number;
  error: string | null;
};

export async function backfillRow(s: Server, teamId: string): Promise<BackfillRow | undefined> {
  const [row] = await query<BackfillRow>(
    s,
    sql`select status, messages::int as messages, requests, rate_limited, error from slack_backfills where team_id = ${teamId}`,
  );
  return row;
}

/** Waits until the history import is done; throws when it fails or `timeoutMs` passes. */
export async function waitForBackfill(
  s: Server,
  teamId: string,
  timeoutMs: number,
  onTick?: (row: BackfillRow | undefined) => void,
  tickMs = 1000,
): Promise<BackfillRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await backfillRow(s, teamId);
    onTick?.(row);
    if (row?.status === 'done') return row;
    if (row?.status === 'failed') throw new Error(`backfill failed: ${row.error}`);
    if (Date.now() > deadline)
      throw new Error(`backfill not done in ${timeoutMs} ms: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, tickMs));
  }
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Renders rows as a Markdown table (first row = header). */
export function mdTable(rows: (string | number)[][], align: ('l' | 'r')[] = []): string {
  const cells = rows.map((r) => r.map(String));
  const widths = cells[0]!.map((_, i) => Math.max(3, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (align[i] === 'r' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const sep = `| ${widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(cells[0]!), sep, ...cells.slice(1).map(line)].join('\n');
}

/** Replaces the section between `<!-- name:start -->` and `<!-- name:end -->` in RESULTS.md (this folder's by default). */
export function writeSection(
  name: string,
  body: string,
  file = path.join(path.dirname(new URL(import.meta.url).pathname), 'RESULTS.md'),
): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const block = `${start}\n${body.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text =
    i >= 0 && j > i
      ? text.slice(0, i) + block + text.slice(j + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, text);
}

/** `--name value` from the command line, or `dflt`. */
export const stringArg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};

export const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The p-th percentile (nearest rank) of `xs`. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/**
 * A `ROLE=worker` process of the product on the server's database (as in production). BENCH_CPU_PROF=<dir>
 * writes its CPU profile there.
 */
export function startWorker(s: Server, name: string): ChildProcess {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      '--import',
      'tsx',
      path.join(root, 'apps/server/src/main.ts'),
    ],
    {
      cwd: root,
      env: { ...process.env, ...s.env, ROLE: 'worker', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  child.on('exit', (code, signal) => log(`worker ${name} exited`, code ?? signal));
  return child;
}

/** Counts Web API calls and 429s per method on their way to the emulator. */
export async function countingProxy(apiUrl: string) {
  const target = new URL(apiUrl);
  const stats = new Map<string, { calls: number; limited: number; http5xx: number }>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const server = http.createServer((req, res) => {
    const method = (req.url ?? '').split('?')[0]!.replace(/^\/api\//, '');
    const up = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname.replace(/\/$/, '')}/${(req.url ?? '').replace(/^\/api\//, '')}`,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (r) => {
        const s = stats.get(method) ?? { calls: 0, limited: 0, http5xx: 0 };
        s.calls++;
        if (r.statusCode === 429) s.limited++;
        if ((r.statusCode ?? 0) >= 500) s.http5xx++;
        stats.set(method, s);
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => {
      res.destroy();
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`,
    stats,
    reset: () => stats.clear(),
    close: () => server.close(),
  };
}

/** Until every recipient of the workspace's receipts is sent or failed (the workers send them), logging progress. */
export async function waitForDeliveries(s: Server, teamId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [open] = await query<{ n: number }>(
      s,
      sql`select count(*)::int as n from delivery_recipients where team_id = ${teamId} and state in ('pending', 'sending')`,
    );
    if (open!.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${open!.n} recipients still open`);
    log(`  ${open!.n} recipients still to send`);
    await sleep(5000);
  }
}
