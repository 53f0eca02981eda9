/**
 * Capacity on one PostgreSQL (issue #32): one workspace the size of the largest public Slack communities —
 * 200,000 members, 500 channels, rollups worth ~20,000,000 posts over 365 days — and the calls of Home,
 * Analytics, Members and Buckets against it through the real server, p50/p95/max against 100 ms.
 *
 *   npx tsx bench/capacity/run.ts                      # seed a scratch database cap_<hex>, measure, drop it
 *   npx tsx bench/capacity/run.ts --keep               # keep the database (its name is printed)
 *   npx tsx bench/capacity/run.ts --reuse cap_1a2b3c4d # measure again on a kept database (no seeding)
 *   options: --members 200000 --channels 500 --days 365 --messages 20000000 --runs 30 --seed-only --no-write
 *            --only TEXT (just the calls whose page and name contain TEXT; nothing written)
 *
 * 1. Seed (bench/members/seed.ts, shared with the Members, Buckets and first-load benches): members, channels,
 *    channel memberships, join/leave events and the rollups written STRAIGHT INTO THE TABLES (activity_daily;
 *    the per-member day and month rollups and active members per day summed from it; per channel/day, per
 *    hour and keywords derived from it), not produced by ingesting messages; the standing windows built by
 *    the product's own rebuild; eight tags. Then VACUUM ANALYZE, as autovacuum would leave the tables.
 * 2. The real server (createContext + buildApp with its job workers, bench/ingest/harness.ts) on that
 *    database; an administrator signs up over HTTP and is made an admin of the workspace; three buckets are
 *    created and run once through the API.
 * 3. Every call with the admin's bearer token (so through the workspace guard), 2 warm-ups then --runs timed
 *    calls each, one at a time: time from the request to the last byte on loopback.
 * PostgreSQL comes from BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
 */
import { execSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import * as prettier from 'prettier';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { typedRows } from '../../apps/server/src/db/sql.ts';
import { LOCKS, xactLock } from '../../apps/server/src/db/locks.ts';
import { localDay } from '../../apps/server/src/lib/days.ts';
import { rebuildStandingWindows } from '../../apps/server/src/modules/activity/standing-windows.ts';
import { percentile, signedInAdmin, startServer, stringArg, writeSection } from '../ingest/harness.ts';
import { seedActivity, seedCoarserRollups, seedTags } from '../members/seed.ts';
import { PG_BASE, pgAdmin } from '../analytics/dataset.ts';
import { MEMBER_SORT_FIELDS } from '@flywheel/shared/members';

const here = path.dirname(fileURLToPath(import.meta.url));
const num = (name: string, fallback: number) => Number(stringArg(name, String(fallback)));
const flag = (name: string) => process.argv.includes(`--${name}`);
const MEMBERS = num('members', 200_000);
const CHANNELS = num('channels', 500);
const DAYS = num('days', 365);
const MESSAGES = num('messages', 20_000_000);
const RUNS = num('runs', 30);
const TARGET_MS = 100;
const TEAM = 'TCAPACITY1';
const TZ = 'Europe/Berlin';
const seedOptions = { team: TEAM, members: MEMBERS, channels: CHANNELS, days: DAYS, messages: MESSAGES };
const uptime = () => execSync('uptime').toString().trim();
const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);

const reuse = stringArg('reuse', '') || undefined;
const name = reuse ?? `cap_${crypto.randomBytes(4).toString('hex')}`;
if (!reuse) await pgAdmin(`create database ${name}`);
const url = new URL(PG_BASE);
url.pathname = `/${name}`;
const uptimeStart = uptime();
log(uptimeStart);

const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
const db = database.db;
const rows = <T>(q: ReturnType<typeof sql>) => typedRows<T>(db, q);
const phases: [string, number][] = [];
const timed = async (label: string, f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  const s = (performance.now() - t) / 1000;
  phases.push([label, s]);
  log(label, `${s.toFixed(1)} s`);
};

let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  await database.migrate();
  if (!reuse) {
    await timed('members, channels, memberships, events, activity_daily and per-member rollups', () =>
      seedActivity(db, seedOptions),
    );
    await timed('per channel, per hour and keyword rollups (derived from activity_daily)', () =>
      seedCoarserRollups(db, seedOptions),
    );
    await timed("standing windows (the product's rebuild)", () =>
      db.transaction(async (tx) => {
        await xactLock(tx, LOCKS.ingest);
        await rebuildStandingWindows(tx, TEAM, localDay(new Date(), TZ));
      }),
    );
    await timed('tags, then VACUUM ANALYZE', () => seedTags(db, seedOptions));
  }
  const tables = await rows<{ table: string; rows: number; total: number; heap: number }>(sql`
    select c.relname as table, c.reltuples::bigint::float8 as rows,
      pg_total_relation_size(c.oid)::float8 as total, pg_relation_size(c.oid)::float8 as heap
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and pg_total_relation_size(c.oid) > 1000000
    order by pg_total_relation_size(c.oid) desc`);
  const [posts] = await rows<{ messages: number; replies: number; reactions: number }>(sql`
    select sum(messages)::float8 as messages, sum(replies)::float8 as replies, sum(reactions)::float8 as reactions
    from activity_daily where team_id = ${TEAM}`);
  const [dbSize] = await rows<{ bytes: number }>(
    sql`select pg_database_size(current_database())::float8 as bytes`,
  );
  const [version] = await rows<{ server_version: string }>(sql`show server_version`);
  log('posts', posts, 'database', `${(dbSize!.bytes / 1e9).toFixed(2)} GB`);
  if (flag('seed-only')) throw new Error('seed-only');

  // ---------- the real server on this database ----------
  const emu = {
    app: { clientId: 'bench', clientSecret: 'bench', signingSecret: 'bench' },
    apiUrl: 'http://127.0.0.1:9/api/',
    authorizeUrl: 'http://127.0.0.1:9/oauth/v2/authorize',
    setEventsUrl: async () => true,
  };
  server = await startServer('postgres', emu, {}, { databaseUrl: url.toString() });
  const me = await signedInAdmin(server);
  await db.execute(sql`insert into workspace_admins (team_id, user_id) values (${TEAM}, ${me.userid})`);
  const headers = { authorization: `Bearer ${me.token}` };
  const call = async (method: 'GET' | 'POST', p: string, body?: object) => {
    const res = await fetch(`${server!.url}/api/v0${p}`, {
      method,
      headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
      body: body ? JSON.stringify({ team_id: TEAM, ...body }) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
    return text;
  };

  // Three buckets, each run once (their last run's members are what the bucket's page and exports read).
  const channelsOf = (...n: number[]) => n.map((c) => `C${String(c).padStart(6, '0')}`);
  const bucketDefs = [
    {
      bucket_name: 'Regulars of three channels (90 days, > 5 messages)',
      data: {
        channel_filter: { ids: channelsOf(2, 9, 16), type: 'OR' },
        sub_time_filter: { type: 'static', days: 90 },
        message_filter: { operator: '>', count: 5 },
      },
    },
    {
      bucket_name: 'Quiet newcomers (joined in 30 days, no replies in 14 days)',
      data: {
        channel_filter: { ids: channelsOf(1), type: 'OR' },
        base_events: { event: 'workspace_join', time_filter_type: 'Fixed', days: 30 },
        sub_time_filter: { type: 'static', days: 14 },
        replies_filter: { operator: '=', count: 0 },
      },
    },
    {
      bucket_name: 'Whole workspace, a year, reactions > 10',
      data: {
        channel_filter: { ids: channelsOf(1), type: 'OR' },
        sub_time_filter: { type: 'static', days: 365 },
        reaction_filter: { operator: '>', count: 10 },
      },
    },
  ];
  const bucketIds: number[] = [];
  // A kept database (--reuse) has them from its first run.
  const existing = JSON.parse(await call('GET', `/bucket/getbuckets/${TEAM}`)) as {
    data: { id: number; name: string }[];
  };
  for (const def of bucketDefs) {
    let id = existing.data.find((b) => b.name === def.bucket_name)?.id;
    if (id === undefined) {
      const made = JSON.parse(await call('POST', '/bucket/createbucket', def)) as { data: { id: number } };
      id = made.data.id;
      await call('POST', '/bucket/execute', { id });
    }
    bucketIds.push(id);
  }

  // ---------- the calls ----------
  type Call = { group: string; name: string; method: 'GET' | 'POST'; path: string; body?: object };
  const day = (n: number) => localDay(new Date(Date.now() - n * 86_400_000), TZ);
  const ranges: [string, object, string][] = [
    ...[7, 14, 90, 365].map((d): [string, object, string] => [
      `${d} d`,
      { type: 'static', days: d },
      `days=${d}`,
    ]),
    [
      'custom 30 d',
      { type: 'dynamic', start_date: day(60), end_date: day(31) },
      `start_date=${day(60)}&end_date=${day(31)}`,
    ],
  ];
  const calls: Call[] = [
    { group: 'Frame', name: 'auth/me', method: 'GET', path: '/auth/me' },
    { group: 'Frame', name: 'channels/getchannels', method: 'GET', path: `/channels/getchannels/${TEAM}` },
    { group: 'Frame', name: 'tags/gettags', method: 'GET', path: `/tags/gettags/${TEAM}` },
    {
      group: 'Frame',
      name: 'getauthorizedadmins',
      method: 'GET',
      path: `/getauthorizedadmins/${TEAM}/${me.userid}`,
    },
    { group: 'Frame', name: 'workspaces/status', method: 'GET', path: `/workspaces/status/${TEAM}` },
    { group: 'Home', name: 'getcardsdata (24 h)', method: 'GET', path: `/homepage/getcardsdata/${TEAM}` },
    { group: 'Home', name: 'gettasks', method: 'GET', path: `/homepage/gettasks/${TEAM}` },
    { group: 'Home', name: 'alterbot/getbotdetails', method: 'GET', path: `/alterbot/getbotdetails/${TEAM}` },
  ];
  for (const [label, t, q] of ranges) {
    const home = (n: string, method: 'GET' | 'POST', p: string, body?: object) =>
      calls.push({ group: 'Home', name: `${n}, ${label}`, method, path: p, body });
    home('workspacehighlights', 'GET', `/homepage/workspacehighlights/${TEAM}?${q}`);
    home('getchanneldata', 'GET', `/homepage/getchanneldata/${TEAM}?${q}`);
    home('getuseradmindata', 'POST', '/homepage/getuseradmindata', { time_filter: t });
    home('getmostactivemembers', 'POST', '/homepage/getmostactivemembers', { time_filter: t });
  }
  // getanalyticscompare takes the static windows only (the UI shows it for them).
  for (const d of [7, 14, 90, 365])
    calls.push({
      group: 'Analytics',
      name: `getanalyticscompare, ${d} d`,
      method: 'GET',
      path: `/analytics/getanalyticscompare/${TEAM}/${d}`,
    });
  for (const [label, t] of ranges) {
    const an = (n: string, p: string, body: object) =>
      calls.push({ group: 'Analytics', name: `${n}, ${label}`, method: 'POST', path: p, body });
    an('activityanalytics', '/analytics/activityanalytics', { time_filter: t, channels: [] });
    an('memberschangeanalytics', '/analytics/memberschangeanalytics', { time_filter: t, channels: [] });
    an('channelsactivityanalytics', '/analytics/channelsactivityanalytics', { time_filter: t });
    an('membersactivityanalytics (page of 10)', '/analytics/membersactivityanalytics', {
      time_filter: t,
      channels: [],
      tags: [],
      page: 1,
      page_size: 10,
    });
    an('getactivitytrend (2 h)', '/analytics/getactivitytrend', { time_filter: t, slot: 2 });
    an('wordcloud', '/analytics/wordcloud', { time_filter: t });
    an('performadvanceanalytics (page of 10)', '/analytics/performadvanceanalytics', {
      time_filter: t,
      channels: [],
      channel_type: 'OR',
      split_by_date_and_channel: false,
      page: 1,
      page_size: 10,
    });
  }
  const members = (n: string, body: object) =>
    calls.push({ group: 'Members', name: n, method: 'POST', path: '/members/getmembersdata', body });
  members('first page (7 d, activity desc, 25)', { time_filter: { type: 'static', days: 7 } });
  for (const field of MEMBER_SORT_FIELDS)
    members(`7 d, sort ${field} desc`, { sort: { field, direction: 'desc' } });
  members('7 d, sort real_name asc, page 40', { sort: { field: 'real_name', direction: 'asc' }, page: 40 });
  for (const [label, t] of ranges.slice(1))
    members(`${label}, activity desc`, { time_filter: t, sort: { field: 'activity', direction: 'desc' } });
  members('90 d, messages > 2 and reactions > 0, sort messages desc', {
    time_filter: { type: 'static', days: 90 },
    activity_filter: {
      type: 'AND',
      message_filter: { operator: '>', count: 2 },
      reaction_filter: { operator: '>', count: 0 },
    },
    sort: { field: 'messages', direction: 'desc' },
  });
  members('90 d, 3 channels, sort activity desc', {
    time_filter: { type: 'static', days: 90 },
    channels: channelsOf(2, 9, 16),
  });
  members('365 d, #channel-1 (everyone), sort activity desc', {
    time_filter: { type: 'static', days: 365 },
    channels: channelsOf(1),
  });
  members('7 d, tag, sort real_name asc', { tags: [1], sort: { field: 'real_name', direction: 'asc' } });
  members('7 d, joined in the last 30 days', {
    base_filter: { type: 'team_join', time_filter: { type: 'static', days: 30 } },
  });
  members('search "grace" (name)', { search: 'grace' });
  members('search "user12345" (one member)', { search: 'user12345' });
  calls.push({
    group: 'Buckets',
    name: 'getbuckets (list)',
    method: 'GET',
    path: `/bucket/getbuckets/${TEAM}`,
  });
  bucketIds.forEach((id, i) => {
    calls.push({
      group: 'Buckets',
      name: `execute (count): ${bucketDefs[i]!.bucket_name}`,
      method: 'POST',
      path: '/bucket/execute',
      body: { id },
    });
    calls.push({
      group: 'Buckets',
      name: `getbucketres (members): ${bucketDefs[i]!.bucket_name}`,
      method: 'GET',
      path: `/bucket/getbucketres/${id}/${TEAM}`,
    });
  });

  type Result = Call & { p50: number; p95: number; max: number; kb: number };
  const results: Result[] = [];
  // --only TEXT: just the calls whose page and name contain TEXT (to compare two builds); nothing is written.
  const only = stringArg('only', '');
  for (const c of calls.filter((x) => `${x.group} ${x.name}`.includes(only))) {
    const ms: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS + 2; i++) {
      const t = performance.now();
      bytes = (await call(c.method, c.path, c.body)).length;
      if (i >= 2) ms.push(performance.now() - t);
    }
    const r = {
      ...c,
      p50: percentile(ms, 50),
      p95: percentile(ms, 95),
      max: Math.max(...ms),
      kb: bytes / 1024,
    };
    results.push(r);
    log(
      `${c.group} ${c.name}`,
      `p50 ${r.p50.toFixed(1)}`,
      `p95 ${r.p95.toFixed(1)}`,
      `max ${r.max.toFixed(1)}`,
    );
  }
  const uptimeEnd = uptime();
  log(uptimeEnd);

  // ---------- RESULTS.md (the measured section) ----------
  const f1 = (n: number) => n.toFixed(1);
  const mb = (b: number) => (b / 1e6).toLocaleString('en', { maximumFractionDigits: 0 });
  const missed = results.filter((r) => r.p95 > TARGET_MS);
  const totalPosts = posts!.messages + posts!.replies;
  const md = [
    `Run: ${new Date().toISOString().slice(0, 16)}Z, \`npx tsx bench/capacity/run.ts${reuse ? ' --reuse …' : ''}\`, PostgreSQL ${version!.server_version}, Node ${process.version}, ${RUNS} timed calls per row after 2 warm-ups.`,
    '',
    `- Load at the start: \`${uptimeStart}\``,
    `- Load at the end: \`${uptimeEnd}\``,
    `- Workspace: ${MEMBERS.toLocaleString('en')} members, ${CHANNELS} channels, ${DAYS} days; rollups worth ${posts!.messages.toLocaleString('en')} messages + ${posts!.replies.toLocaleString('en')} replies (${(totalPosts / 1e6).toFixed(1)} M posts) and ${posts!.reactions.toLocaleString('en')} reactions.`,
    `- Database: ${mb(dbSize!.bytes)} MB.`,
    ...(reuse
      ? ['- Seeding: none in this run (a kept database).']
      : [
          `- Seeding: ${phases.reduce((s, p) => s + p[1], 0).toFixed(0)} s in all (${phases.map(([l, s]) => `${l}: ${s.toFixed(0)} s`).join('; ')}).`,
        ]),
    '',
    '| table | rows | heap MB | with indexes MB |',
    '| --- | ---: | ---: | ---: |',
    ...tables.map((t) => `| ${t.table} | ${t.rows.toLocaleString('en')} | ${mb(t.heap)} | ${mb(t.total)} |`),
    '',
    `${results.length} calls; ${missed.length} over ${TARGET_MS} ms at p95${missed.length ? `: ${missed.map((r) => `${r.group} ${r.name}`).join('; ')}` : ''}.`,
    '',
    '| page | call | p50 ms | p95 ms | max ms | answer KB | p95 ≤ 100 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...results.map(
      (r) =>
        `| ${r.group} | ${r.name} | ${f1(r.p50)} | ${f1(r.p95)} | ${f1(r.max)} | ${f1(r.kb)} | ${r.p95 <= TARGET_MS ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
  console.log(md);
  if (!flag('no-write') && !only) {
    const file = path.join(here, 'RESULTS.md');
    writeSection('capacity', md, file);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      await prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file }),
    );
  }
} catch (e) {
  if (!(e instanceof Error && e.message === 'seed-only')) throw e;
} finally {
  await server?.close();
  await database.close();
  if (flag('keep') || reuse) log(`kept database ${name}`);
  else await pgAdmin(`drop database if exists ${name} with (force)`);
}
