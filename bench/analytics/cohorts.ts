/**
 * Retention by join cohort (GET /analytics/cohorts/:teamId) on the analytics bench's workspace: 50,000 members
 * (joined over the last 565 days, Europe/Berlin), a year of member-day rollups.
 *
 *   npx tsx bench/analytics/cohorts.ts                     # PostgreSQL database test_cohorts_bench (kept)
 *   options: --database NAME (e.g. flywheel_bench_analytics_5000000, the full data set analytics.ts loads:
 *            used as it is), --runs N (default 30), --fresh (rebuild the synthetic data), --drop
 *
 * The grid reads two tables only: slack_members (join times) and activity_member_daily (member-day totals). On
 * a database without the analytics data set it writes the same members with the data set's SQL (dataset.ts
 * insertFacts) and activity_member_daily by SQL: each member active on a day with a fixed heavy-tailed
 * probability (a few members nearly every day, most rarely), from the later of their join and a year ago to
 * today: about the member-day rows a 5,000,000-message year writes. Loading 5M messages through the ingestion
 * takes 30-60 minutes on this machine; the query's reads are the same either way.
 *
 * Measures through the real route (zod, service, activity read; the workspace guard left out): weekly and
 * monthly, 12 cohorts x 12 weeks, p50/p95 of --runs calls after one warm-up, and the machine's load average.
 */
import os from 'node:os';
import crypto from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { vacuumBusyTables } from '../../apps/server/src/db/maintenance.ts';
import { secretBox } from '../../apps/server/src/lib/secret-box.ts';
import { rebuildCohortWeeks } from '../../apps/server/src/modules/activity/cohort-weeks.ts';
import { analyticsRoutes } from '../../apps/server/src/modules/analytics/routes.ts';
import { analyticsService } from '../../apps/server/src/modules/analytics/service.ts';
import { workspacesService } from '../../apps/server/src/modules/workspaces/service.ts';
import { registerErrorHandling } from '../../apps/server/src/plugins/errors.ts';
import { DEFAULTS, insertFacts, PG_BASE, TEAM, TZ } from './dataset.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

const argv = process.argv;
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i > 0 ? argv[i + 1]! : fallback;
};
const flag = (name: string) => argv.includes(`--${name}`);
const NAME = arg('database', 'test_cohorts_bench');
const RUNS = Number(arg('runs', '30'));

async function admin(q: string) {
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect();
  try {
    return await c.query(q);
  } finally {
    await c.end();
  }
}
if (flag('fresh')) await admin(`drop database if exists ${NAME} with (force)`);
if ((await admin(`select 1 from pg_database where datname = '${NAME}'`)).rowCount === 0)
  await admin(`create database ${NAME}`);
const url = new URL(PG_BASE);
url.pathname = `/${NAME}`;
const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 8 });
await database.migrate();
const db = database.db;
const rows = async <T>(q: any): Promise<T[]> => ((await db.execute(q)) as unknown as { rows: T[] }).rows;
const count = async (table: string) =>
  (
    await rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table} where team_id = '${TEAM}'`))
  )[0]!.n;

let synthetic = false;
if ((await count('activity_member_daily')) === 0) {
  await db.execute(sql`delete from slack_members where team_id = ${TEAM}`);
  await db.execute(sql`delete from slack_member_events where team_id = ${TEAM}`);
  const t0 = performance.now();
  const now = Math.floor(Date.now() / 1000);
  await insertFacts(db, DEFAULTS, now);
  // Member i's daily chance of any activity: h(w)^4 (mean 0.2), with 2% floor for everyone who is not a bot.
  await db.execute(sql`insert into activity_member_daily (team_id, day, member_id, messages, replies, reactions)
    select m.team_id, d::date, m.member_id, 1 + floor(h('m' || m.member_id || d::date) * 4)::int,
      floor(h('r' || m.member_id || d::date) * 3)::int, floor(h('x' || m.member_id || d::date) * 3)::int
    from (select team_id, member_id, greatest((joined_at at time zone ${TZ})::date, (now() at time zone ${TZ})::date - ${DEFAULTS.days - 1}::int) as first,
            0.02 + 0.98 * power(h('w' || member_id), 4) as p
          from slack_members where team_id = ${TEAM} and not is_bot) m,
      generate_series(m.first, (now() at time zone ${TZ})::date, interval '1 day') d
    where h(m.member_id || d::date::text) < m.p`);
  // Written straight into the rollup, so the cohort weeks the rollup flush keeps are computed here.
  await rebuildCohortWeeks(db, TEAM);
  await db.execute(sql`analyze slack_members`);
  await db.execute(sql`analyze activity_member_daily`);
  await db.execute(sql`analyze activity_member_cohort_weeks`);
  synthetic = true;
  console.log(`synthetic data written in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
} else {
  await db.execute(sql`analyze slack_members`);
  await db.execute(sql`analyze activity_member_daily`);
  await db.execute(sql`analyze activity_member_cohort_weeks`);
}
// As the nightly db.maintenance job does where autovacuum is off (index-only reads need the visibility map).
const vacuumed = await vacuumBusyTables(database);
console.log(vacuumed.length ? `vacuumed ${vacuumed.length} busy tables` : 'autovacuum on');
const sizes = {
  members: await count('slack_members'),
  activity_member_daily: await count('activity_member_daily'),
  activity_member_cohort_weeks: await count('activity_member_cohort_weeks'),
};
console.log(NAME, synthetic ? '(synthetic rollups)' : '', sizes);

const workspaces = workspacesService(db, secretBox(crypto.randomBytes(32)));
const app = Fastify();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
registerErrorHandling(app);
const guard = { onRequest: async () => {}, preValidation: async () => {} };
await app.register(
  async (v0) => {
    await v0.register(analyticsRoutes({ analytics: analyticsService({ db, workspaces }), guard }));
  },
  { prefix: '/api/v0' },
);
await app.ready();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const results: string[] = [];
for (const period of ['week', 'month'] as const) {
  const go = async () => {
    const t0 = performance.now();
    const res = await app.inject({
      method: 'GET',
      url: `/api/v0/analytics/cohorts/${TEAM}?period=${period}`,
    });
    if (res.statusCode !== 200) throw new Error(`${period}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return { ms: performance.now() - t0, body: res.json() as any };
  };
  const first = await go();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) ms.push((await go()).ms);
  const members = first.body.data.cohorts.reduce((n: number, c: any) => n + c.members, 0);
  const line = `| ${period} | 12 x 12 | ${members} | ${pct(ms, 50).toFixed(1)} | ${pct(ms, 95).toFixed(1)} | ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} |`;
  results.push(line);
  console.log(line);
}
console.log(
  '\n| period | cohorts x weeks | members in cohorts | p50 ms | p95 ms | load average (1 5 15 min) |',
);
console.log('|---|---|---|---|---|---|');
for (const l of results) console.log(l);

await app.close();
await database.close();
if (flag('drop')) await admin(`drop database if exists ${NAME} with (force)`);
