/**
 * Home and Analytics on a big workspace: 50,000 members, 200 channels, 5,000,000 messages over 365 days.
 *
 *   npx tsx bench/analytics/analytics.ts --db postgres            # load (once) + measure
 *   npx tsx bench/analytics/analytics.ts --db pglite --messages 5000000 --timeout-min 60
 *   options: --members --channels --messages --days --runs --raw-runs --batch --timeout-min --fresh --drop
 *
 * Load: members, channels and join/leave events are inserted with SQL (they are a few tables of facts); the
 * MESSAGES go through the ingestion path: generated conversations.history-shaped objects (threads, replies,
 * reactions inline, a few deleted/system lines skipped by the ingestion) are applied with `recordMessage` in
 * batched transactions with `factsWriter` and the `rollupBuffer`, exactly as the history import writes them.
 * The emulator + backfill path was not used for 5M messages: conversations.history pages of 200 over HTTP
 * would add hours of transport for the same writes (bench/ingest measures that path).
 *
 * The generator and the load are in dataset.ts (bench/conversations measures on the same data set).
 * The database is kept between runs (PostgreSQL `flywheel_bench_analytics_<n>`, PGlite dir under /tmp) so the
 * load happens once; --fresh reloads, --drop removes it at the end. If the ingestion of this checkout does not
 * write a rollup table yet, --derive-missing fills it once from the raw rows (reported in the output).
 *
 * Measure: every Home and Analytics endpoint through its real route (zod, service, repo; the workspace guard
 * is left out) at 7 and 365 days, p50/p95 of --runs calls; beside it the same answer computed from raw
 * messages and reactions (--raw-runs calls), and the ratio.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { createLogger } from '../../apps/server/src/lib/logger.ts';
import { secretBox } from '../../apps/server/src/lib/secret-box.ts';
import { botService } from '../../apps/server/src/modules/bot/service.ts';
import { analyticsRoutes } from '../../apps/server/src/modules/analytics/routes.ts';
import { analyticsService } from '../../apps/server/src/modules/analytics/service.ts';
import { botRoutes } from '../../apps/server/src/modules/bot/routes.ts';
import { homeRoutes } from '../../apps/server/src/modules/home/routes.ts';
import { tasksService } from '../../apps/server/src/modules/home/service.ts';
import { keywordsOf } from '../../apps/server/src/modules/activity/keywords.ts';
import { refreshStandingWindows } from '../../apps/server/src/modules/activity/standing-windows.ts';
import { vacuumBusyTables } from '../../apps/server/src/db/maintenance.ts';
import { workspacesService } from '../../apps/server/src/modules/workspaces/service.ts';
import { registerErrorHandling } from '../../apps/server/src/plugins/errors.ts';
import { slackApi } from '../../apps/server/src/slack/client.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { channelId, DEFAULTS, ensureLoaded, openDataset, TEAM, TZ, type DbKind } from './dataset.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

const argv = process.argv;
const arg = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i > 0 ? Number(argv[i + 1]) : fallback;
};
const str = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i > 0 ? argv[i + 1]! : fallback;
};
const flag = (name: string) => argv.includes(`--${name}`);
const KIND = str('db', 'postgres') as DbKind;
const MESSAGES = arg('messages', DEFAULTS.messages);
const RUNS = arg('runs', 30);
const RAW_RUNS = arg('raw-runs', 3);
const DEADLINE = Date.now() + arg('timeout-min', 60) * 60_000;
const here = path.dirname(fileURLToPath(import.meta.url));

// ---------- database and data set (dataset.ts) ----------
const dataset = await openDataset(KIND, MESSAGES, { fresh: flag('fresh') });
const database = dataset.database;
const db = database.db;
const rows = async <T>(q: any): Promise<T[]> => ((await db.execute(q)) as unknown as { rows: T[] }).rows;
const count = async (table: string) =>
  (
    await rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table} where team_id = '${TEAM}'`))
  )[0]!.n;
const loaded = await ensureLoaded(
  database,
  {
    members: arg('members', DEFAULTS.members),
    channels: arg('channels', DEFAULTS.channels),
    messages: MESSAGES,
    days: arg('days', DEFAULTS.days),
    batch: arg('batch', DEFAULTS.batch),
    deadline: DEADLINE,
  },
  { resume: flag('resume'), loadFile: path.join(here, `load-${KIND}-${MESSAGES}.json`) },
);
const loadInfo = loaded.info;
if (flag('load-only') || process.env.BENCH_LOAD_ONLY === '1') {
  await database.close();
  process.exit(0);
}

// Rollups the ingestion of this checkout did not write (see the header).
const derived: string[] = [];
const rollupCounts: Record<string, number> = {};
for (const t of [
  'activity_daily',
  'activity_team_hourly',
  'activity_channel_daily',
  'activity_member_daily',
  'keyword_daily',
])
  rollupCounts[t] = await count(t);
if (flag('derive-missing')) {
  const content = sql`m.team_id = ${TEAM} and m.deleted_at is null and (m.subtype is null or m.subtype in ('thread_broadcast','file_share','me_message'))`;
  if (rollupCounts.activity_member_daily === 0) {
    await db.execute(sql`insert into activity_member_daily select team_id, day, member_id, sum(messages), sum(replies), sum(reactions)
      from activity_daily where team_id = ${TEAM} group by 1, 2, 3`);
    derived.push('activity_member_daily');
  }
  if (rollupCounts.activity_channel_daily === 0) {
    await db.execute(sql`insert into activity_channel_daily select team_id, day, channel_id, sum(messages), sum(replies), sum(reactions)
      from activity_daily where team_id = ${TEAM} group by 1, 2, 3`);
    derived.push('activity_channel_daily');
  }
  if (rollupCounts.activity_team_hourly === 0) {
    await db.execute(sql`insert into activity_team_hourly (team_id, day, hour, messages, replies, reactions)
      select team_id, day, hour, sum(messages)::int, sum(replies)::int, sum(reactions)::int from (
        select m.team_id, m.day, extract(hour from m.posted_at at time zone ${TZ})::int as hour,
          count(*) filter (where not m.is_reply) as messages, count(*) filter (where m.is_reply) as replies, 0 as reactions
        from slack_messages m where ${content} and m.user_id is not null and m.subtype is distinct from 'bot_message' group by 1, 2, 3
        union all
        select r.team_id, r.day, extract(hour from r.reacted_at at time zone ${TZ})::int, 0, 0, count(*)
        from slack_reactions r where r.team_id = ${TEAM} and r.removed_at is null group by 1, 2, 3) x
      group by 1, 2, 3`);
    derived.push('activity_team_hourly');
  }
  if (rollupCounts.keyword_daily === 0) {
    const days = await rows<{ day: string }>(
      sql`select distinct day::text as day from slack_messages where team_id = ${TEAM} order by 1`,
    );
    for (const { day } of days) {
      const texts = await rows<{ text: string }>(sql`select m.text from slack_messages m where ${content}
        and m.subtype is distinct from 'bot_message' and m.day = ${day}::date`);
      const counts = new Map<string, number>();
      for (const t of texts)
        for (const k of new Set(keywordsOf(t.text))) counts.set(k, (counts.get(k) ?? 0) + 1);
      const e = [...counts];
      if (e.length)
        await db.execute(sql`insert into keyword_daily (team_id, day, term, count) select ${TEAM}, ${day}::date, t, n
          from unnest(${sql.param(e.map((x) => x[0]))}::text[], ${sql.param(e.map((x) => x[1]))}::int[]) as v(t, n)`);
    }
    derived.push('keyword_daily');
  }
  if (derived.length) await db.execute(sql`analyze`);
  for (const t of derived) rollupCounts[t] = await count(t);
}
console.log('rollup rows', rollupCounts, derived.length ? `derived by SQL: ${derived.join(', ')}` : '');

// ---------- the API ----------
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://localhost:3000',
  WEB_DIST: '/nonexistent',
});
const logger = createLogger('silent');
const workspaces = workspacesService(db, secretBox(crypto.randomBytes(32)));
const bot = botService({
  db,
  workspaces,
  slack: slackApi(config.slack),
  publicUrl: config.publicUrl,
  logger,
});
const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
registerErrorHandling(app);
// The real Home, Analytics and bot routes; the workspace guard (token + admin check) is left out.
const guard = { onRequest: async () => {}, preValidation: async () => {} };
const analytics = analyticsService({ db, workspaces });
await app.register(
  async (v0) => {
    await v0.register(homeRoutes({ analytics, tasks: tasksService(db), guard }));
    await v0.register(analyticsRoutes({ analytics, guard }));
    await v0.register(botRoutes({ bot, guard }));
  },
  { prefix: '/api/v0' },
);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const chans = [channelId(1), channelId(2), channelId(3)];

type Call = {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: object;
  raw?: (from: string, to: string) => any;
};
const tf = (days: number) => ({ type: 'static', days });
const localToday = (await rows<{ d: string }>(sql`select (now() at time zone ${TZ})::date::text as d`))[0]!.d;
const fromOf = (days: number) =>
  new Date(Date.parse(`${localToday}T00:00:00Z`) - (days - 1) * 86400_000).toISOString().slice(0, 10);

// The same answers from raw messages and reactions (no rollups).
const msgWhere = (from: string, to: string) =>
  sql`m.team_id = ${TEAM} and m.day between ${from}::date and ${to}::date and m.deleted_at is null
    and (m.subtype is null or m.subtype in ('thread_broadcast','file_share','me_message')) and m.user_id is not null`;
const reWhere = (from: string, to: string) =>
  sql`r.team_id = ${TEAM} and r.day between ${from}::date and ${to}::date and r.removed_at is null`;
const rawPerKey = (
  key: string,
  from: string,
  to: string,
  extra = sql``,
) => sql`select k, sum(a)::int as messages, sum(b)::int as replies, sum(c)::int as reactions from (
    select ${sql.raw(key.replaceAll('X', 'm'))} as k, count(*) filter (where not m.is_reply) a, count(*) filter (where m.is_reply) b, 0 c
      from slack_messages m where ${msgWhere(from, to)} ${extra} group by 1
    union all select ${sql.raw(key.replaceAll('X', 'r'))}, 0, 0, count(*) from slack_reactions r where ${reWhere(from, to)} group by 1) x group by k`;
const rawWords = async (from: string, to: string) => {
  const texts = await rows<{ text: string }>(
    sql`select m.text from slack_messages m where ${msgWhere(from, to)}`,
  );
  const counts = new Map<string, number>();
  for (const t of texts) for (const k of new Set(keywordsOf(t.text))) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 100);
};

// What the nightly maintenance job does where autovacuum does not run (PGlite, and this machine's PostgreSQL
// has autovacuum off): VACUUM (ANALYZE) of the tables ingestion keeps updating.
const tVacuum = performance.now();
const vacuumed = await vacuumBusyTables(database);
const vacuumNote = vacuumed.length
  ? `VACUUM (ANALYZE) of the ${vacuumed.length} busy tables (the nightly db.maintenance job): ${((performance.now() - tVacuum) / 1000).toFixed(0)} s.`
  : 'autovacuum on: no VACUUM by the bench.';
console.log(vacuumNote);

// The standing windows (per-member 7/14/90/365-day totals) as the product's minute job builds them.
const tBuild = performance.now();
const rebuilt = await refreshStandingWindows(db, new Map([[TEAM, TZ]]));
const windowBuild = rebuilt.length
  ? `${((performance.now() - tBuild) / 1000).toFixed(1)} s`
  : 'already current';
console.log('standing windows', windowBuild);

const calls = (days: number): Call[] => {
  const t = tf(days);
  return [
    {
      name: 'homepage/workspacehighlights',
      method: 'GET',
      path: `/homepage/workspacehighlights/${TEAM}?days=${days}`,
      raw: (f, to) => rows(rawPerKey('X.day', f, to)),
    },
    {
      name: 'homepage/getchanneldata',
      method: 'GET',
      path: `/homepage/getchanneldata/${TEAM}?days=${days}`,
      raw: (f, to) => rows(rawPerKey('X.channel_id', f, to)),
    },
    { name: 'homepage/getcardsdata (24 h)', method: 'GET', path: `/homepage/getcardsdata/${TEAM}` },
    {
      name: 'homepage/getuseradmindata',
      method: 'POST',
      path: '/homepage/getuseradmindata',
      body: { time_filter: t },
      raw: (f, to) =>
        rows(sql`select s.is_admin or s.is_owner as adm, count(*)::int from slack_messages m
          join slack_members s on s.team_id = m.team_id and s.member_id = m.user_id where ${msgWhere(f, to)} and not s.is_bot group by 1`),
    },
    {
      name: 'homepage/getmostactivemembers',
      method: 'POST',
      path: '/homepage/getmostactivemembers',
      body: { time_filter: t },
      raw: (f, to) =>
        rows(
          sql`select * from (${rawPerKey('X.user_id', f, to)}) y order by messages + replies + reactions desc limit 10`,
        ),
    },
    {
      name: 'analytics/getanalyticscompare',
      method: 'GET',
      path: `/analytics/getanalyticscompare/${TEAM}/${days}`,
      raw: (f, to) => rows(rawPerKey("'all'", fromOf(days * 2), to)),
    },
    {
      name: 'analytics/getactivitytrend (2 h)',
      method: 'POST',
      path: '/analytics/getactivitytrend',
      body: { time_filter: t, slot: 2 },
      raw: (f, to) =>
        rows(
          sql`select extract(hour from m.posted_at at time zone ${TZ})::int / 2, count(*)::int from slack_messages m where ${msgWhere(f, to)} group by 1`,
        ),
    },
    {
      name: 'analytics/activityanalytics',
      method: 'POST',
      path: '/analytics/activityanalytics',
      body: { time_filter: t },
      raw: (f, to) => rows(rawPerKey('X.day', f, to)),
    },
    {
      name: 'analytics/activityanalytics (3 channels)',
      method: 'POST',
      path: '/analytics/activityanalytics',
      body: { time_filter: t, channels: chans },
      raw: (f, to) =>
        rows(
          rawPerKey('X.day || X.channel_id', f, to, sql`and m.channel_id = any(${sql.param(chans)}::text[])`),
        ),
    },
    {
      name: 'analytics/memberschangeanalytics',
      method: 'POST',
      path: '/analytics/memberschangeanalytics',
      body: { time_filter: t },
      raw: (f, to) =>
        rows(
          sql`select m.day, count(distinct m.user_id)::int from slack_messages m where ${msgWhere(f, to)} group by 1`,
        ),
    },
    {
      name: 'analytics/membersactivityanalytics (page of 10)',
      method: 'POST',
      path: '/analytics/membersactivityanalytics',
      body: { time_filter: t, page: 3, page_size: 10 },
      raw: (f, to) =>
        rows(
          sql`select * from (${rawPerKey('X.user_id', f, to)}) y order by messages + replies + reactions desc, k limit 10 offset 20`,
        ),
    },
    {
      name: 'analytics/membersactivityanalytics (every member: CSV download)',
      method: 'POST',
      path: '/analytics/membersactivityanalytics',
      body: { time_filter: t },
      raw: (f, to) => rows(rawPerKey('X.user_id', f, to)),
    },
    {
      name: 'analytics/membersactivityanalytics (AND filter)',
      method: 'POST',
      path: '/analytics/membersactivityanalytics',
      body: {
        time_filter: t,
        activity_filter: {
          type: 'AND',
          message_filter: { operator: '>', count: 20 },
          reply_filter: { operator: '>', count: 5 },
        },
        page_size: 10,
      },
      raw: (f, to) =>
        rows(
          sql`select * from (${rawPerKey('X.user_id', f, to)}) y where y.messages > 20 and y.replies > 5
            order by messages + replies + reactions desc, k limit 10`,
        ),
    },
    {
      name: 'analytics/channelsactivityanalytics',
      method: 'POST',
      path: '/analytics/channelsactivityanalytics',
      body: { time_filter: t },
      raw: (f, to) => rows(rawPerKey('X.channel_id', f, to)),
    },
    {
      name: 'analytics/wordcloud',
      method: 'POST',
      path: '/analytics/wordcloud',
      body: { time_filter: t },
      // Tokenizing a year of messages in JavaScript takes many minutes: only with --raw-wordcloud-365.
      raw: days <= 90 || flag('raw-wordcloud-365') ? rawWords : undefined,
    },
    { name: 'homepage/gettasks', method: 'GET', path: `/homepage/gettasks/${TEAM}` },
    { name: 'alterbot/getbotdetails', method: 'GET', path: `/alterbot/getbotdetails/${TEAM}` },
  ];
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
async function timeApi(c: Call) {
  const go = async () => {
    const t0 = performance.now();
    const res = await fetch(`${address}/api/v0${c.path}`, {
      method: c.method,
      headers: c.body ? { 'content-type': 'application/json' } : {},
      body: c.body ? JSON.stringify({ team_id: TEAM, ...c.body }) : undefined,
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${body.slice(0, 200)}`);
    return { ms: performance.now() - t0, bytes: body.length };
  };
  await go();
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await go();
    ms.push(r.ms);
    bytes = r.bytes;
  }
  return { p50: pct(ms, 50), p95: pct(ms, 95), bytes };
}
async function timeRaw(c: Call, days: number) {
  if (!c.raw) return null;
  const ms: number[] = [];
  for (let i = 0; i < RAW_RUNS; i++) {
    if (Date.now() > DEADLINE) break;
    const t0 = performance.now();
    await c.raw(fromOf(days), localToday);
    ms.push(performance.now() - t0);
  }
  return ms.length ? pct(ms, 50) : null;
}

const results: string[] = [];
const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
for (const days of [7, 365]) {
  for (const c of calls(days)) {
    if (Date.now() > DEADLINE) {
      results.push(`| ${days} | ${c.name} | (deadline) | | | | |`);
      continue;
    }
    const api = await timeApi(c);
    const raw = await timeRaw(c, days);
    const line = `| ${days} | ${c.name} | ${f(api.p50)} | ${f(api.p95)} | ${(api.bytes / 1024).toFixed(1)} | ${raw === null ? '-' : f(raw)} | ${raw === null ? '-' : `${(raw / api.p50).toFixed(0)}x`} |`;
    console.log(line);
    results.push(line);
  }
}
await app.close();
const sizes = {
  slack_members: await count('slack_members'),
  slack_channels: await count('slack_channels'),
  slack_messages: await count('slack_messages'),
  slack_reactions: await count('slack_reactions'),
  ...rollupCounts,
};
await database.close();
if (flag('drop')) await dataset.drop();

const section = [
  `### ${KIND} — ${new Date().toISOString().slice(0, 16)}Z`,
  '',
  `Data: ${Object.entries(sizes)
    .map(([k, v]) => `${k} ${v.toLocaleString()}`)
    .join(', ')}.`,
  loadInfo
    ? `Load through recordMessage: ${loadInfo.loadSeconds.toFixed(0)} s (${loadInfo.rate.toFixed(0)} messages/s).`
    : 'Load: reused.',
  `Standing windows (activity_member_windows) built by the product's refresh: ${windowBuild}.`,
  vacuumNote,
  derived.length
    ? `Rollups derived by SQL (ingestion of this checkout did not write them): ${derived.join(', ')}.`
    : 'All rollups written by the ingestion.',
  `API: ${RUNS} calls after one warm-up, HTTP on loopback; raw: median of ${RAW_RUNS}.`,
  '',
  '| days | endpoint | p50 ms | p95 ms | KB | raw p50 ms | raw / api |',
  '|---|---|---|---|---|---|---|',
  ...results,
  '',
].join('\n');
const out = path.join(here, `results-${KIND}.md`);
fs.writeFileSync(out, section);
console.log(`wrote ${out}`);
process.exit(0);
