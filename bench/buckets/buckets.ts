/**
 * Buckets on a 50,000-member workspace, on PostgreSQL (issue #16).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/buckets/buckets.ts [--members 50000]
 *
 * A scratch database gets the real migrations and the Members benchmark's generated workspace (bench/members/
 * seed.ts: rollup rows inserted directly, not produced by ingesting messages). Then, through the real routes on
 * a Fastify instance listening on a port (the workspace guard left out):
 *  - POST /analytics/performadvanceanalytics, several shapes (90 days with channel and activity filters, a join
 *    window, split by date and channel), N runs each: p50/p95 (target p95 < 300 ms);
 *  - POST /bucket/execute of a bucket with channel and activity filters over 90 days, N runs: p50/p95 (target
 *    p95 < 300 ms);
 *  - POST /analytics/exportadvanceanalytics split by date and channel over 90 days, every member: time to the
 *    last byte (target < 3 s).
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
import { LOCKS, xactLock } from '../../apps/server/src/db/locks.ts';
import { localDay } from '../../apps/server/src/lib/days.ts';
import { secretBox } from '../../apps/server/src/lib/secret-box.ts';
import { rebuildStandingWindows } from '../../apps/server/src/modules/activity/standing-windows.ts';
import { bucketRoutes } from '../../apps/server/src/modules/buckets/routes.ts';
import { bucketsService } from '../../apps/server/src/modules/buckets/service.ts';
import { membersService } from '../../apps/server/src/modules/members-list/service.ts';
import { tagsService } from '../../apps/server/src/modules/tags/service.ts';
import { workspacesService } from '../../apps/server/src/modules/workspaces/service.ts';
import { registerErrorHandling } from '../../apps/server/src/plugins/errors.ts';
import { stringArg } from '../ingest/harness.ts';
import { seedActivity, seedTags } from '../members/seed.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MEMBERS = arg('members', 50_000);
const CHANNELS = arg('channels', 40);
const DAYS = arg('days', 400);
const RUNS = arg('runs', 30);
const TEAM = 'TBENCH0001';
const TZ = 'Europe/Berlin';
const seedOptions = { team: TEAM, members: MEMBERS, channels: CHANNELS, days: DAYS };
const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!base) throw new Error('Set TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test)');

// --db NAME measures again on a database an earlier run kept (--keep), without loading it again.
const reuse = stringArg('db', '') || undefined;
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

type Timing = { total: number; p50: number; p95: number; max: number };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;

try {
  await database.migrate();
  const db = database.db;
  const t0 = performance.now();
  if (!reuse) {
    await seedActivity(db, seedOptions);
    await db.transaction(async (tx) => {
      await xactLock(tx, LOCKS.ingest);
      await rebuildStandingWindows(tx, TEAM, localDay(new Date(), TZ));
    });
    await seedTags(db, seedOptions);
  }
  const rows = async (table: string) =>
    (
      (await db.execute(sql`select count(*)::int as n from ${sql.raw(table)}`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]!.n;
  const sizes = {
    slack_members: await rows('slack_members'),
    slack_channel_members: await rows('slack_channel_members'),
    slack_member_events: await rows('slack_member_events'),
    activity_daily: await rows('activity_daily'),
  };
  console.log('data', sizes, `${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const workspaces = workspacesService(db, secretBox(crypto.randomBytes(32)));
  const tags = tagsService(db);
  const SLICES = Number(process.env.DB_QUERY_SLICES ?? 2);
  const membersList = membersService({ db, workspaces, tags, querySlices: SLICES });
  const buckets = bucketsService({ db, membersList, tags, querySlices: SLICES });
  const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await app.register(
    bucketRoutes({ buckets, guard: { onRequest: async () => {}, preValidation: async () => {} } }),
    { prefix: '/api/v0' },
  );
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const post = async (p: string, body: object) => {
    const res = await fetch(`${address}/api/v0${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ team_id: TEAM, ...body }),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res;
  };
  const measure = async (p: string, body: object, count: (json: unknown) => number): Promise<Timing> => {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      const s = performance.now();
      total = count(await (await post(p, body)).json());
      if (i >= 3) times.push(performance.now() - s);
    }
    return { total, p50: pct(times, 50), p95: pct(times, 95), max: Math.max(...times) };
  };

  const channels = ['C000002', 'C000009', 'C000016'];
  const activity = {
    type: 'OR',
    message_filter: { operator: '>', count: 5 },
    reaction_filter: { operator: '<', count: 2 },
    reply_filter: { operator: '=', count: 0 },
  };
  const shapes: [string, object][] = [
    [
      '90 days, 3 channels OR, activity OR (>, <, =), page 1 of 10',
      {
        time_filter: { type: 'static', days: 90 },
        channels,
        activity_filter: activity,
      },
    ],
    [
      '90 days, 3 channels AND, messages > 0, page 1 of 10',
      {
        time_filter: { type: 'static', days: 90 },
        channels,
        channel_type: 'AND',
        activity_filter: { type: 'AND', message_filter: { operator: '>', count: 0 } },
      },
    ],
    [
      '90 days, joined in the last 90 days (ms window), 3 channels, page 1 of 10',
      {
        time_filter: { type: 'static', days: 90 },
        channels,
        base_filter: { type: 'team_join', startts: Date.now() - 90 * 86_400_000, endts: Date.now() },
      },
    ],
    [
      '90 days, split by date and channel, 3 channels, activity OR, page 1 of 10',
      {
        time_filter: { type: 'static', days: 90 },
        channels,
        activity_filter: activity,
        split_by_date_and_channel: true,
      },
    ],
    [
      '90 days, whole workspace, messages > 2, page 1 of 10',
      {
        time_filter: { type: 'static', days: 90 },
        activity_filter: { type: 'AND', message_filter: { operator: '>', count: 2 } },
      },
    ],
  ];
  const results: ({ shape: string } & Timing)[] = [];
  for (const [label, body] of shapes) {
    const t = await measure(
      '/analytics/performadvanceanalytics',
      body,
      (j) => (j as { total: number }).total,
    );
    results.push({ shape: label, ...t });
    console.log(label, `total ${t.total}`, `p50 ${t.p50.toFixed(1)} ms`, `p95 ${t.p95.toFixed(1)} ms`);
  }

  // A bucket with channel and activity filters over 90 days, run again and again (its members stored each time).
  const made = (await (
    await post('/bucket/createbucket', {
      bucket_name: `Bench bucket ${Date.now()}`,
      data: {
        channel_filter: { ids: channels, type: 'OR' },
        sub_time_filter: { type: 'static', days: 90 },
        activity_filter: 'OR',
        message_filter: { operator: '>', count: 5 },
        reaction_filter: { operator: '<', count: 2 },
        replies_filter: { operator: '=', count: 0 },
      },
    })
  ).json()) as { data: { id: number } };
  const execute = await measure('/bucket/execute', { id: made.data.id }, (j) =>
    Number((j as { data: { bucketdata: { member_count: number } } }).data.bucketdata.member_count),
  );
  console.log(
    'execute',
    `members ${execute.total}`,
    `p50 ${execute.p50.toFixed(1)} ms`,
    `p95 ${execute.p95.toFixed(1)} ms`,
  );

  const exports: { first: number; last: number; rows: number; bytes: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    const res = await post('/analytics/exportadvanceanalytics', {
      time_filter: { type: 'static', days: 90 },
      split_by_date_and_channel: true,
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
    const last = performance.now() - s;
    exports.push({ first, last, rows: newlines - 1, bytes });
    console.log(
      `export ${newlines - 1} rows, ${(bytes / 1e6).toFixed(2)} MB, last byte ${last.toFixed(0)} ms`,
    );
  }
  await app.close();

  const pgVersion = (
    (await db.execute(sql`show server_version`)) as unknown as { rows: { server_version: string }[] }
  ).rows[0]!.server_version;
  const md = [
    '# Buckets benchmark',
    '',
    `Run: \`TEST_DATABASE_URL=… npx tsx bench/buckets/buckets.ts\` (${new Date().toISOString().slice(0, 10)}, PostgreSQL ${pgVersion}, Node ${process.version}).`,
    '',
    "Data: the Members benchmark's generated workspace (bench/members/seed.ts; rollup rows inserted directly):",
    '',
    ...Object.entries(sizes).map(([k, v]) => `- ${k}: ${v.toLocaleString('en')}`),
    '',
    `Requests go through the real routes over HTTP on localhost; the workspace guard is left out. ${RUNS} timed runs per shape after 3 warm-ups.`,
    '',
    '## POST /analytics/performadvanceanalytics (target p95 < 300 ms)',
    '',
    '| shape | rows | p50 ms | p95 ms | max ms |',
    '|---|---:|---:|---:|---:|',
    ...results.map(
      (r) => `| ${r.shape} | ${r.total} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} |`,
    ),
    '',
    '## POST /bucket/execute, 3 channels, activity OR over 90 days (target p95 < 300 ms)',
    '',
    '| members | p50 ms | p95 ms | max ms |',
    '|---:|---:|---:|---:|',
    `| ${execute.total} | ${execute.p50.toFixed(1)} | ${execute.p95.toFixed(1)} | ${execute.max.toFixed(1)} |`,
    '',
    '## POST /analytics/exportadvanceanalytics, split by date and channel, 90 days, every member (target < 3 s)',
    '',
    '| run | rows | MB | first byte ms | last byte ms |',
    '|---:|---:|---:|---:|---:|',
    ...exports.map(
      (e, i) =>
        `| ${i + 1} | ${e.rows} | ${(e.bytes / 1e6).toFixed(2)} | ${e.first.toFixed(0)} | ${e.last.toFixed(0)} |`,
    ),
    '',
  ].join('\n');
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
  const formatted = await prettier.format(md, { ...(await prettier.resolveConfig(out)), filepath: out });
  if (!process.argv.includes('--no-write')) fs.writeFileSync(out, formatted);
  console.log(md);
} finally {
  await dropScratch();
}
