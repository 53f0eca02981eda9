/**
 * Hardening benchmark (issue 18), on PostgreSQL, against the real server process started by `npm start`'s
 * supervisor (apps/server/src/supervise.ts):
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/hardening/run.ts [--seconds 60] [--users 50]
 *
 * 1. A scratch database gets the real migrations (the server applies them), then a 50,000-member workspace with
 *    100 channels and 366 days of rollups written straight into the tables ingestion maintains (not ingested).
 * 2. The largest requests the API still accepts (366 days x 100 channels x 50,000 members): time and the
 *    server's peak memory (VmHWM of the server process) before and after.
 * 3. 50 dashboard users for --seconds: each loops over a mix of Home, Analytics and Members calls; errors and
 *    latency percentiles.
 * 4. kill -9 of the server under that load: time until /api/health answers again (the supervisor restarts it),
 *    and every task the API acknowledged (201) before and after the kill is still there.
 * Writes RESULTS.md beside this file.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import * as prettier from 'prettier';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 60);
const USERS = arg('users', 50);
const MEMBERS = arg('members', 50_000);
const CHANNELS = 100;
const DAYS = 366;
const TEAM = 'THARDEN001';
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!base) throw new Error('Set TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test)');

const name = `flywheel_harden_${crypto.randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
const dbUrl = new URL(base);
dbUrl.pathname = `/${name}`;
const port = 3400 + Math.floor(Math.random() * 500);
const api = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-harden-'));

const loadAvg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
const loadAtStart = loadAvg();

// --- the server, under the supervisor ---
let out = '';
const supervisor = spawn(
  process.execPath,
  [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'apps/server/src/supervise.ts')],
  {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: api,
      DATABASE_URL: dbUrl.toString(),
      DATA_DIR: dataDir,
      SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
      JWT_SECRET: crypto.randomBytes(48).toString('base64'),
      SLACK_CLIENT_ID: '1.2',
      SLACK_CLIENT_SECRET: 'bench',
      SLACK_SIGNING_SECRET: 'bench',
      LOG_LEVEL: 'info',
      LOGIN_MAX_PER_IP: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
supervisor.stdout.on('data', (c) => (out += c));
supervisor.stderr.on('data', (c) => (out += c));
const serverPids = () =>
  out
    .split('\n')
    .filter((l) => l.includes('Flywheel is running'))
    .map((l) => (JSON.parse(l) as { pid: number }).pid);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function healthy(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${api}/api/health`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await sleep(100);
  }
  return false;
}
const memory = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(status.match(new RegExp(`${k}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
};

const db = new pg.Pool({ connectionString: dbUrl.toString(), max: 4 });
try {
  if (!(await healthy(90_000))) throw new Error(`the server did not start:\n${out.slice(-3000)}`);
  console.log('server up; seeding');

  // --- data ---
  const t0 = performance.now();
  const q = (text: string, values: unknown[] = []) => db.query(text, values);
  await q(`create or replace function h(a text) returns double precision language sql immutable as
    $$ select ('x' || substr(md5(a), 1, 8))::bit(32)::bigint / 4294967296.0 $$`);
  await q(
    `insert into workspaces (team_id, workspace_name, domain, timezone) values ($1, 'Hardening Bench', 'bench', 'Europe/Berlin')`,
    [TEAM],
  );
  await q(
    `insert into slack_members (team_id, member_id, real_name, display_name, email, joined_at, deleted, is_bot)
    select $1, 'U' || lpad(i::text, 7, '0'), 'Member ' || i, 'member' || i, 'member' || i || '@example.com',
      now() - (h('j' || i) * 700 || ' days')::interval, false, false from generate_series(1, $2::int) i`,
    [TEAM, MEMBERS],
  );
  await q(
    `insert into slack_channels (team_id, channel_id, name)
    select $1, 'C' || lpad(c::text, 6, '0'), 'channel-' || c from generate_series(1, $2::int) c`,
    [TEAM, CHANNELS],
  );
  await q(
    `insert into slack_channel_members (team_id, channel_id, member_id)
    select distinct $1, 'C' || lpad((1 + floor(h('c' || i || k) * $3::int))::int::text, 6, '0'), 'U' || lpad(i::text, 7, '0')
    from generate_series(1, $2::int) i, generate_series(1, 3) k`,
    [TEAM, MEMBERS, CHANNELS],
  );
  await q(`select setseed(0.18)`);
  // A fifth of the members are regulars (active ~15% of days), the rest drop by (~1% of days).
  await q(
    `insert into activity_daily (team_id, day, member_id, channel_id, messages, replies, reactions)
    select $1, d::date, 'U' || lpad(i::text, 7, '0'), 'C' || lpad((1 + (i * 7 + floor(random() * 3)::int) % $3::int)::text, 6, '0'),
      1 + floor(random() * 6)::int, floor(random() * 4)::int, floor(random() * 8)::int
    from generate_series((current_date - ($4::int - 1))::timestamp, current_date::timestamp, interval '1 day') d,
      generate_series(1, $2::int) i
    where random() + 0 * extract(day from d) < case when i % 5 = 0 then 0.15 else 0.01 end
    on conflict do nothing`,
    [TEAM, MEMBERS, CHANNELS, DAYS],
  );
  await q(`insert into activity_member_daily (team_id, day, member_id, messages, replies, reactions)
    select team_id, day, member_id, sum(messages), sum(replies), sum(reactions) from activity_daily group by 1, 2, 3`);
  await q(`insert into activity_member_monthly (team_id, month, member_id, messages, replies, reactions)
    select team_id, date_trunc('month', day)::date, member_id, sum(messages), sum(replies), sum(reactions)
    from activity_daily group by 1, 2, 3`);
  await q(`insert into activity_channel_daily (team_id, day, channel_id, messages, replies, reactions)
    select team_id, day, channel_id, sum(messages), sum(replies), sum(reactions) from activity_daily group by 1, 2, 3`);
  await q(`insert into activity_team_daily (team_id, day, active_members)
    select team_id, day, count(*) from activity_member_daily group by 1, 2`);
  await q(`insert into activity_team_hourly (team_id, day, hour, messages, replies, reactions)
    select team_id, day, h, sum(messages) / 24 + (h % 3), sum(replies) / 24, sum(reactions) / 24
    from activity_daily, generate_series(0, 23) h where day > current_date - 3 group by 1, 2, 3`);
  await q(
    `insert into keyword_daily (team_id, day, term, count)
    select $1, d::date, 'word' || w, 1 + floor(h(d::text || w) * 50)::int
    from generate_series(current_date - 365, current_date, interval '1 day') d, generate_series(1, 300) w`,
    [TEAM],
  );
  const rows = (await q(`select count(*)::int as n from activity_daily`)).rows[0].n as number;
  await q(`vacuum analyze`);
  // The standing windows: the server's own job rebuilds them when a workspace has no anchor yet.
  await q(`delete from activity_window_anchor where team_id = $1`, [TEAM]);
  const seedSeconds = (performance.now() - t0) / 1000;
  console.log(`seeded ${rows} activity rows in ${seedSeconds.toFixed(1)} s`);

  // --- an admin and 50 sessions ---
  const userId = crypto.randomUUID();
  const password = 'a bench passphrase 2026';
  await q(
    `insert into users (id, email, username, country, password_hash, email_verified_at) values ($1, 'bench@example.com', 'Bench', 'Germany', $2, now())`,
    [userId, await hash(password, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 })],
  );
  await q(`insert into workspace_admins (team_id, user_id) values ($1, $2)`, [TEAM, userId]);
  async function login(): Promise<string> {
    const r = await fetch(`${api}/api/v0/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password }),
    });
    if (!r.ok) throw new Error(`login ${r.status} ${await r.text()}`);
    return ((await r.json()) as { token: string }).token;
  }
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i++) tokens.push(await login());

  const call = async (token: string, method: string, url: string, body?: unknown) => {
    const started = performance.now();
    try {
      const r = await fetch(`${api}/api/v0${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await r.text();
      return { status: r.status, ms: performance.now() - started, bytes: text.length, text };
    } catch (err) {
      return { status: 0, ms: performance.now() - started, bytes: 0, text: String(err) };
    }
  };

  // Wait for the windows job (every minute, and at start) to build the standing windows.
  for (let i = 0; i < 90; i++) {
    const n = (await q(`select count(*)::int as n from activity_window_anchor where team_id = $1`, [TEAM]))
      .rows[0].n;
    if (n > 0) break;
    await sleep(1000);
  }

  // --- 2. the largest accepted requests ---
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const widest = { type: 'dynamic', start_date: yearAgo, end_date: today };
  const allChannels = Array.from({ length: CHANNELS }, (_, c) => `C${String(c + 1).padStart(6, '0')}`);
  const largest: { name: string; status: number; ms: number; mb: number; rows: number }[] = [];
  const token0 = tokens[0]!;
  const [pid0] = serverPids();
  const before = memory(pid0!);
  for (const [label, method, url, body] of [
    [
      'activityanalytics: 366 days x 100 channels (36,600 rows)',
      'POST',
      '/analytics/activityanalytics',
      { team_id: TEAM, time_filter: widest, channels: allChannels },
    ],
    [
      'membersactivityanalytics: 366 days x 100 channels, every member',
      'POST',
      '/analytics/membersactivityanalytics',
      { team_id: TEAM, time_filter: widest, channels: allChannels },
    ],
    [
      'membersactivityanalytics: 366 days, every member, no channel filter',
      'POST',
      '/analytics/membersactivityanalytics',
      { team_id: TEAM, time_filter: widest },
    ],
    [
      'exportmembersdata: 366 days, every member (CSV)',
      'POST',
      '/members/exportmembersdata',
      { team_id: TEAM, time_filter: widest },
    ],
    [
      'getmembersdata: 366 days x 100 channels, page_size 500',
      'POST',
      '/members/getmembersdata',
      { team_id: TEAM, time_filter: widest, channels: allChannels.slice(0, 100), page_size: 500 },
    ],
    [
      'memberschangeanalytics: 366 days x 100 channels',
      'POST',
      '/analytics/memberschangeanalytics',
      { team_id: TEAM, time_filter: widest, channels: allChannels },
    ],
    ['wordcloud: 366 days', 'POST', '/analytics/wordcloud', { team_id: TEAM, time_filter: widest }],
    [
      'workspacehighlights: 366 days',
      'GET',
      `/homepage/workspacehighlights/${TEAM}?start_date=${yearAgo}&end_date=${today}`,
      undefined,
    ],
  ] as const) {
    const r = await call(token0, method, url, body);
    let n = 0;
    try {
      const j = JSON.parse(r.text) as { data?: unknown[] };
      n = j.data?.length ?? 0;
    } catch {
      n = r.text.split('\n').length - 2;
    }
    largest.push({ name: label, status: r.status, ms: r.ms, mb: r.bytes / 1e6, rows: n });
    console.log(label, r.status, r.ms.toFixed(0), 'ms', n, 'rows');
  }
  const afterLargest = memory(pid0!);
  const refused = await call(
    token0,
    'GET',
    `/homepage/workspacehighlights/${TEAM}?start_date=0001-01-01&end_date=9999-12-31`,
  );

  // --- 3. 50 dashboard users ---
  let created = 0;
  const mix = (token: string, i: number) => {
    const s = { type: 'static', days: [7, 14, 90, 365][i % 4] };
    const calls: [string, string, unknown?][] = [
      ['GET', `/homepage/workspacehighlights/${TEAM}?days=7`],
      ['GET', `/homepage/getchanneldata/${TEAM}?days=7`],
      ['GET', `/homepage/getcardsdata/${TEAM}`],
      ['POST', '/homepage/getuseradmindata', { team_id: TEAM, time_filter: s }],
      ['POST', '/homepage/getmostactivemembers', { team_id: TEAM, time_filter: s }],
      ['GET', `/analytics/getanalyticscompare/${TEAM}/${s.days}`],
      [
        'POST',
        '/analytics/activityanalytics',
        { team_id: TEAM, time_filter: s, channels: allChannels.slice(0, 5) },
      ],
      ['POST', '/analytics/membersactivityanalytics', { team_id: TEAM, time_filter: s, page_size: 25 }],
      ['POST', '/analytics/channelsactivityanalytics', { team_id: TEAM, time_filter: s }],
      ['POST', '/analytics/getactivitytrend', { team_id: TEAM, time_filter: s, slot: 2 }],
      ['POST', '/analytics/wordcloud', { team_id: TEAM, time_filter: s }],
      [
        'POST',
        '/members/getmembersdata',
        { team_id: TEAM, time_filter: s, page: 1 + (i % 20), page_size: 25 },
      ],
    ];
    return calls[i % calls.length]!;
  };
  type Sample = { ms: number; status: number; url: string; at: number };
  async function load(seconds: number, writes: boolean) {
    const samples: Sample[] = [];
    const stopAt = Date.now() + seconds * 1000;
    await Promise.all(
      tokens.map(async (token, u) => {
        for (let i = u; Date.now() < stopAt; i++) {
          if (writes && i % 10 === 0) {
            const r = await call(token, 'POST', '/homepage/createtasks', {
              team_id: TEAM,
              title: `bench task ${u}-${i}`,
            });
            if (r.status === 201) created++;
            samples.push({ ms: r.ms, status: r.status, url: 'createtasks', at: Date.now() });
            continue;
          }
          const [method, url, body] = mix(token, i);
          const r = await call(token, method, url, body);
          samples.push({ ms: r.ms, status: r.status, url, at: Date.now() });
        }
      }),
    );
    return samples;
  }
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  };
  console.log(`load: ${USERS} users for ${SECONDS} s`);
  const loadBefore = loadAvg();
  const steady = await load(SECONDS, false);
  const steadyErrors = steady.filter((s) => s.status !== 200);
  const ms = steady.map((s) => s.ms);
  const afterLoad = memory(pid0!);
  console.log(`requests ${steady.length}, errors ${steadyErrors.length}, p99 ${pct(ms, 99).toFixed(0)} ms`);

  // --- 4. kill -9 under load ---
  console.log('kill -9 under load');
  let killedAt = 0;
  let backAt = 0;
  const chaos = (async () => {
    await sleep(8000);
    killedAt = Date.now();
    process.kill(pid0!, 'SIGKILL');
    await sleep(50);
    if (await healthy(60_000)) backAt = Date.now();
  })();
  const stormy = await load(30, true);
  await chaos;
  const [, pid1] = serverPids();
  const tasks = (await q(`select count(*)::int as n from home_tasks where team_id = $1`, [TEAM])).rows[0]
    .n as number;
  const lostDuringOutage = stormy.filter((s) => s.status !== 200 && s.status !== 201);
  const afterRecovery = stormy.filter((s) => s.at > backAt + 2000);
  const errorsAfterRecovery = afterRecovery.filter((s) => s.status !== 200 && s.status !== 201);

  // --- results ---
  const f = (n: number) => n.toFixed(1);
  const md = `# Hardening benchmark

Run: \`TEST_DATABASE_URL=… npx tsx bench/hardening/run.ts --seconds ${SECONDS} --users ${USERS}\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, PostgreSQL on 127.0.0.1).
The machine is shared: load average (1 / 5 / 15 min) ${loadAtStart} at the start, ${loadBefore} before the load test, ${loadAvg()} at the end.

The real server process (\`NODE_ENV=production\`, \`DATABASE_URL\` a scratch database, under \`apps/server/src/supervise.ts\`
as \`npm start\` runs it) over HTTP on localhost, every request through the workspace guard (token + admin check).
Data: ${MEMBERS.toLocaleString('en')} members, ${CHANNELS} channels, ${DAYS} days, ${rows.toLocaleString('en')} \`activity_daily\` rows and the rollups derived from them, written straight into the tables (not ingested), seeded in ${f(seedSeconds)} s.

## The largest requests the API accepts

366 days is the longest range and 100 channels the most a per-day-and-channel answer may name; the
workspace has 50,000 members. Server memory (the server process's RSS): ${f(before.rssMb)} MB before, ${f(afterLargest.rssMb)} MB after, peak (VmHWM) ${f(afterLargest.peakMb)} MB.
The 10,000-year range (\`0001-01-01\` to \`9999-12-31\`) that killed the server before answers ${refused.status} in ${f(refused.ms)} ms.

| request | status | ms | answer MB | rows |
| --- | ---: | ---: | ---: | ---: |
${largest.map((l) => `| ${l.name} | ${l.status} | ${f(l.ms)} | ${l.mb.toFixed(2)} | ${l.rows.toLocaleString('en')} |`).join('\n')}

## ${USERS} dashboard users for ${SECONDS} s

Each user loops without pause over Home (highlights, channels, cards, content share, top members), Analytics
(compare, activity with 5 channels, members activity page, channel activity, trends, word cloud) and Members
(a page of 25), with 7/14/90/365-day windows.

- requests: ${steady.length.toLocaleString('en')} (${f(steady.length / SECONDS)}/s), errors: ${steadyErrors.length}${steadyErrors.length ? ` (${[...new Set(steadyErrors.map((e) => e.status))].join(', ')})` : ''}
- latency ms: p50 ${f(pct(ms, 50))}, p95 ${f(pct(ms, 95))}, p99 ${f(pct(ms, 99))}, max ${f(Math.max(...ms))}
- server memory after the load: RSS ${f(afterLoad.rssMb)} MB, peak ${f(afterLoad.peakMb)} MB

## kill -9 of the server under that load

The same ${USERS} users for 30 s, every tenth call creating a task; 8 s in, the server process (pid ${pid0}) is killed
with SIGKILL. The supervisor starts a new one (pid ${pid1 ?? '—'}).

- answering again (\`/api/health\` 200) ${backAt ? `${f((backAt - killedAt) / 1000)} s` : 'NOT within 60 s'} after the kill
- requests that failed meanwhile: ${lostDuringOutage.length} of ${stormy.length} (connection refused or cut while it was down); after recovery (+2 s): ${errorsAfterRecovery.length} errors in ${afterRecovery.length} requests
- nothing lost: ${created} tasks acknowledged with 201, ${tasks} in the database${tasks === created ? ' (all of them)' : ''}
`;
  fs.writeFileSync(
    path.join(here, 'RESULTS.md'),
    await prettier.format(md, { parser: 'markdown', printWidth: 120, proseWrap: 'preserve' }),
  );
  console.log(md);
} finally {
  await db.end();
  supervisor.kill('SIGTERM');
  await new Promise((r) => supervisor.once('exit', r));
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
