/**
 * Members screen on a 50,000-member workspace, on PostgreSQL.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/members/members.ts [--members 50000]
 *
 * A scratch database gets the real migrations, then generated data written straight into the tables the
 * ingestion maintains (members, channels, channel memberships, join/leave events and the activity_daily
 * rollups: the rollup rows are INSERTED DIRECTLY here, not produced by ingesting messages — the Members
 * screen reads only the rollups). Then:
 *  - POST /members/getmembersdata with filters, sort and a page, several shapes, N runs each: p50/p95;
 *  - POST /members/exportmembersdata of every member (50,000 rows) through HTTP, streamed: time to last byte.
 * Both go through the real routes (zod validation, service, repo) on a Fastify instance listening on a port.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import pg from 'pg';
import * as prettier from 'prettier';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { secretBox } from '../../apps/server/src/lib/secret-box.ts';
import { memberListRoutes } from '../../apps/server/src/modules/members-list/routes.ts';
import { membersService } from '../../apps/server/src/modules/members-list/service.ts';
import { tagsService } from '../../apps/server/src/modules/tags/service.ts';
import { workspacesService } from '../../apps/server/src/modules/workspaces/service.ts';
import { registerErrorHandling } from '../../apps/server/src/plugins/errors.ts';
import { localDay } from '../../apps/server/src/lib/days.ts';
import { LOCKS, xactLock } from '../../apps/server/src/db/locks.ts';
import { rebuildStandingWindows } from '../../apps/server/src/modules/activity/standing-windows.ts';
import { seedActivity, seedTags } from './seed.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MEMBERS = arg('members', 50_000);
const CHANNELS = arg('channels', 40);
const DAYS = arg('days', 400);
const RUNS = arg('runs', 40);
const TEAM = 'TBENCH0001';
const TZ = 'Europe/Berlin';
const seedOptions = { team: TEAM, members: MEMBERS, channels: CHANNELS, days: DAYS };
let windowBuildSeconds = 0;
const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!base) throw new Error('Set TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test)');

// --reuse NAME measures a database an earlier run left with --keep (no new data; its windows are rebuilt).
const reuse = process.argv.includes('--reuse')
  ? process.argv[process.argv.indexOf('--reuse') + 1]
  : undefined;
const name = reuse ?? `flywheel_bench_${crypto.randomBytes(4).toString('hex')}`;
if (!reuse) {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
}
const url = new URL(base);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 8 });

async function dropScratch() {
  await database.close();
  if (process.argv.includes('--keep') || reuse) {
    console.log(`kept database ${name}`);
    return;
  }
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.end();
}

try {
  await database.migrate();
  const db = database.db;
  const t0 = performance.now();
  if (!reuse) await seedActivity(db, seedOptions);
  // The standing windows (per-member 7/14/90/365-day totals), built by the product's own rebuild.
  const tWindows = performance.now();
  await db.transaction(async (tx) => {
    await xactLock(tx, LOCKS.ingest);
    await rebuildStandingWindows(tx, TEAM, localDay(new Date(), TZ));
  });
  windowBuildSeconds = (performance.now() - tWindows) / 1000;
  if (!reuse) await seedTags(db, seedOptions);
  const count = async (table: string) =>
    (
      (await db.execute(sql`select count(*)::int as n from ${sql.raw(table)}`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]!.n;
  const sizes = {
    slack_members: await count('slack_members'),
    slack_channel_members: await count('slack_channel_members'),
    slack_member_events: await count('slack_member_events'),
    activity_daily: await count('activity_daily'),
    member_tags: await count('member_tags'),
  };
  const seedSeconds = (performance.now() - t0) / 1000;
  console.log('data', sizes, `${seedSeconds.toFixed(1)} s`);

  const workspaces = workspacesService(db, secretBox(crypto.randomBytes(32)));
  // Ranked in slices side by side, as the server does on PostgreSQL (DB_QUERY_SLICES, 2 by default).
  const SLICES = Number(process.env.DB_QUERY_SLICES ?? 2);
  const members = membersService({ db, workspaces, tags: tagsService(db), querySlices: SLICES });
  const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // The real routes; the workspace guard (token + admin check, two indexed lookups) is left out here.
  await app.register(
    memberListRoutes({ members, guard: { onRequest: async () => {}, preValidation: async () => {} } }),
    { prefix: '/api/v0' },
  );
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  // The same routes ranking in one query (DB_QUERY_SLICES=1), for comparison.
  const oneQuery = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  oneQuery.setValidatorCompiler(validatorCompiler);
  oneQuery.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(oneQuery);
  await oneQuery.register(
    memberListRoutes({
      members: membersService({ db, workspaces, tags: tagsService(db), querySlices: 1 }),
      guard: { onRequest: async () => {}, preValidation: async () => {} },
    }),
    { prefix: '/api/v0' },
  );
  const oneQueryAddress = await oneQuery.listen({ port: 0, host: '127.0.0.1' });

  const post = async (p: string, body: object, at = address) => {
    const res = await fetch(`${at}/api/v0${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ team_id: TEAM, ...body }),
    });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    return res;
  };
  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;

  const shapes: [string, object][] = [
    ['default: 7 days, activity desc, page 1 of 5', {}],
    [
      '14 days, AND messages > 2 and reactions > 0, sort messages desc, page 3 of 25',
      {
        time_filter: { type: 'static', days: 14 },
        activity_filter: {
          type: 'AND',
          message_filter: { operator: '>', count: 2 },
          reaction_filter: { operator: '>', count: 0 },
        },
        sort: { field: 'messages', direction: 'desc' },
        page: 3,
        page_size: 25,
      },
    ],
    [
      '90 days, OR replies = 0 / messages > 10, 3 channels, sort real_name asc, page 10 of 25',
      {
        time_filter: { type: 'static', days: 90 },
        channels: ['C000002', 'C000009', 'C000016'],
        activity_filter: {
          type: 'OR',
          reply_filter: { operator: '=', count: 0 },
          message_filter: { operator: '>', count: 10 },
        },
        sort: { field: 'real_name', direction: 'asc' },
        page: 10,
        page_size: 25,
      },
    ],
    [
      '30 days, joined in the last 90 days, tag, search "ada", sort last_active desc',
      {
        time_filter: { type: 'static', days: 30 },
        base_filter: { type: 'team_join', time_filter: { type: 'static', days: 90 } },
        tags: [1, 2],
        search: 'ada',
        sort: { field: 'last_active', direction: 'desc' },
        page_size: 10,
      },
    ],
    [
      'custom range of 60 days, messages < 3, sort activity desc, page 2 of 50',
      {
        time_filter: { type: 'dynamic', start_date: '2000-01-01', end_date: '2000-01-01' },
        activity_filter: { type: 'AND', message_filter: { operator: '<', count: 3 } },
        page: 2,
        page_size: 50,
      },
    ],
    [
      '365 days, no filter, sort activity desc, page 1 of 5',
      { time_filter: { type: 'static', days: 365 }, page_size: 5 },
    ],
  ];
  // The custom range: the 60 days ending 30 days ago.
  const day = (n: number) => new Date(Date.now() - n * 86400_000).toISOString().slice(0, 10);
  Object.assign(shapes[4]![1], { time_filter: { type: 'dynamic', start_date: day(90), end_date: day(31) } });
  shapes.push(
    [
      '365 days, 3 channels, messages < 3, sort activity desc, page 1 of 25',
      {
        time_filter: { type: 'static', days: 365 },
        channels: ['C000002', 'C000009', 'C000016'],
        activity_filter: { type: 'AND', message_filter: { operator: '<', count: 3 } },
        page_size: 25,
      },
    ],
    [
      '365 days, #channel-1 (everyone), sort activity desc, page 1 of 25',
      { time_filter: { type: 'static', days: 365 }, channels: ['C000001'], page_size: 25 },
    ],
  );
  // Year-long custom ranges that no standing window holds: a calendar year, and 365 days ending yesterday.
  const lastYear = new Date().getUTCFullYear() - 1;
  shapes.push(
    [
      `calendar year ${lastYear}, messages < 3, sort activity desc, page 1 of 50`,
      {
        time_filter: { type: 'dynamic', start_date: `${lastYear}-01-01`, end_date: `${lastYear}-12-31` },
        activity_filter: { type: 'AND', message_filter: { operator: '<', count: 3 } },
        page_size: 50,
      },
    ],
    [
      '365 days ending yesterday, no filter, sort messages desc, page 1 of 25',
      {
        time_filter: { type: 'dynamic', start_date: day(365), end_date: day(1) },
        sort: { field: 'messages', direction: 'desc' },
        page_size: 25,
      },
    ],
  );

  type Timing = { total: number; p50: number; p95: number; max: number };
  const measure = async (body: object, at = address): Promise<Timing> => {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      const s = performance.now();
      const res = await post('/members/getmembersdata', body, at);
      total = ((await res.json()) as { total: number }).total;
      if (i >= 3) times.push(performance.now() - s);
    }
    return { total, p50: pct(times, 50), p95: pct(times, 95), max: Math.max(...times) };
  };
  const results: ({ shape: string; sums: Timing; one: Timing } & Timing)[] = [];
  const anchor = await db.execute(sql`select * from activity_window_anchor where team_id = ${TEAM}`);
  const anchorRow = (anchor as unknown as { rows: { day: string; built_at: Date }[] }).rows[0]!;
  for (const [label, body] of shapes) {
    const t = await measure(body);
    const one = await measure(body, oneQueryAddress);
    if (one.total !== t.total)
      throw new Error(`${label}: ${t.total} matches in slices, ${one.total} in one query`);
    // The same call summing the rollups (what every non-standing window does): no anchor, no windows.
    await db.execute(sql`delete from activity_window_anchor where team_id = ${TEAM}`);
    const sums = await measure(body);
    await db.execute(sql`insert into activity_window_anchor (team_id, day, built_at)
      values (${TEAM}, ${anchorRow.day}::date, now())`);
    if (sums.total !== t.total)
      throw new Error(`${label}: ${t.total} matches with windows, ${sums.total} without`);
    results.push({ shape: label, ...t, sums, one });
    console.log(
      label,
      `total ${t.total}`,
      `p50 ${t.p50.toFixed(1)} ms`,
      `p95 ${t.p95.toFixed(1)} ms`,
      `(one query p95 ${one.p95.toFixed(1)}, sums p95 ${sums.p95.toFixed(1)})`,
    );
  }

  const exports: { first: number; last: number; rows: number; bytes: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    const res = await post('/members/exportmembersdata', {
      time_filter: { type: 'static', days: 90 },
      sort: { field: 'real_name', direction: 'asc' },
    });
    const reader = res.body!.getReader();
    let first = 0;
    let bytes = 0;
    let newlines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!first) first = performance.now() - s;
      bytes += value.length;
      for (const b of value) if (b === 10) newlines++;
    }
    exports.push({ first, last: performance.now() - s, rows: newlines - 1, bytes });
    console.log(
      `export ${newlines - 1} rows, ${(bytes / 1e6).toFixed(2)} MB, first byte ${first.toFixed(0)} ms, last ${(performance.now() - s).toFixed(0)} ms`,
    );
  }
  await app.close();
  await oneQuery.close();

  const pgVersion = (
    (await db.execute(sql`show server_version`)) as unknown as { rows: { server_version: string }[] }
  ).rows[0]!.server_version;
  const md = [
    '# Members benchmark',
    '',
    `Run: \`TEST_DATABASE_URL=… npx tsx bench/members/members.ts\` (${new Date().toISOString().slice(0, 10)}, PostgreSQL ${pgVersion}, Node ${process.version}).`,
    '',
    'Data (generated; the rollup rows (activity_daily, and the per-member day and month rollups derived from it) are inserted directly, not produced by ingesting messages):',
    '',
    ...Object.entries(sizes).map(([k, v]) => `- ${k}: ${v.toLocaleString('en')}`),
    '',
    `Requests go through the real routes (zod validation, service, repo, error handler) over HTTP on localhost; the workspace guard is left out. ${RUNS} timed runs per shape after 3 warm-ups.`,
    '',
    '## POST /members/getmembersdata (target p95 ≤ 150 ms)',
    '',
    `Per-member totals of the standing windows (7, 14, 90, 365 days) come from \`activity_member_windows\` (built by the product's rebuild in ${windowBuildSeconds.toFixed(1)} s, then kept by ingestion); other ranges and channel filters sum the rollups. "rollup sums" is the same request with the windows switched off (same matches checked).`,
    '',
    '| shape | matches | p50 ms | p95 ms | max ms | one query p50 / p95 ms | rollup sums p95 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.shape} | ${r.total} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.one.p50.toFixed(1)} / ${r.one.p95.toFixed(1)} | ${r.sums.p95.toFixed(1)} |`,
    ),
    '',
    '## POST /members/exportmembersdata, all members, streamed (target < 3 s)',
    '',
    '| run | rows | MB | first byte ms | last byte ms |',
    '|---:|---:|---:|---:|---:|',
    ...exports.map(
      (e, i) =>
        `| ${i + 1} | ${e.rows} | ${(e.bytes / 1e6).toFixed(2)} | ${e.first.toFixed(0)} | ${e.last.toFixed(0)} |`,
    ),
    '',
    '## Notes',
    '',
    `- Whole-workspace pages are ranked in ${SLICES} slices of the member id order at once, each on its own`,
    '  PostgreSQL connection without parallel workers (DB_QUERY_SLICES); the page is taken from the union of the',
    '  slices\' first offset + limit rows (the "one query" column ranks in one query, DB_QUERY_SLICES=1). Channel',
    '  filters are always ranked in one query (a slice cannot bound the per-channel rollup read through its',
    '  channel index).',
    "- The time filter's standard windows (7, 14, 90, 365 days) read one row per member. A custom range near one",
    '  (365 days ending yesterday) reads that window corrected by the days between their edges, when the active',
    '  members per day say it is cheaper; other ranges sum whole months and edge days. "rollup sums" shows the',
    '  same request with the windows switched off.',
    `- The data spans the last ${DAYS} days, so the calendar year ${lastYear} holds only its part of them.`,
    '- Search, tags and join/leave windows that pick a few members sum the activity of those members alone.',
    "- This machine's PostgreSQL runs with autovacuum off; the bench vacuums once after loading, as autovacuum (or",
    '  the nightly `db.maintenance` job) would.',
    '',
  ].join('\n');
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
  // Formatted as the repository's lint expects.
  const formatted = await prettier.format(md, { ...(await prettier.resolveConfig(out)), filepath: out });
  if (!process.argv.includes('--no-write')) fs.writeFileSync(out, formatted);
  console.log(md);
} finally {
  await dropScratch();
}
