/**
 * Unanswered questions and response times (issue 35) on the analytics bench's workspace: 50,000 members, 200
 * channels, 5,000,000 messages over 365 days, loaded once through the ingestion path by bench/analytics/dataset.ts
 * and kept (PostgreSQL `flywheel_bench_analytics_<messages>`; the migrations build slack_messages_questions_idx).
 *
 *   npx tsx bench/conversations/questions.ts                       # load (once) + measure
 *   npx tsx bench/conversations/questions.ts --messages 200000     # a small scratch data set
 *   options: --db postgres|pglite --messages --runs (30) --warmups (3) --label NAME --no-write
 *
 * Through the real routes (zod, service, repo) on a Fastify instance on a loopback port, the workspace guard
 * left out: GET /questions/getquestions (7, 30 and 90 days; the busiest channel; a search) and
 * GET /analytics/getresponsetimes (7, 30, 90 and 365 days). --warmups calls, then --runs timed calls:
 * p50 / p95 / max. Target: p95 < 150 ms.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import * as prettier from 'prettier';
import { sql } from 'drizzle-orm';
import { vacuumBusyTables } from '../../apps/server/src/db/maintenance.ts';
import { typedRows } from '../../apps/server/src/db/sql.ts';
import { createLogger } from '../../apps/server/src/lib/logger.ts';
import type { DeliveryService } from '../../apps/server/src/modules/delivery/service.ts';
import type { IdempotencyService } from '../../apps/server/src/modules/delivery/idempotency.ts';
import { questionCondition } from '../../apps/server/src/modules/conversations/question-rule.ts';
import { conversationsRoutes } from '../../apps/server/src/modules/conversations/routes.ts';
import { conversationsService } from '../../apps/server/src/modules/conversations/service.ts';
import { registerErrorHandling } from '../../apps/server/src/plugins/errors.ts';
import { channelId, DEFAULTS, ensureLoaded, openDataset, TEAM, type DbKind } from '../analytics/dataset.ts';
import { log, stringArg, writeSection } from '../ingest/harness.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const KIND = stringArg('db', 'postgres') as DbKind;
const MESSAGES = arg('messages', DEFAULTS.messages);
const RUNS = arg('runs', 30);
const WARMUPS = arg('warmups', 3);
const LABEL = stringArg('label', 'latest');
const TARGET_MS = 150;
const here = path.dirname(fileURLToPath(import.meta.url));
const loadAvg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

const loadAtStart = loadAvg();
log(`load average (1 / 5 / 15 min) at start: ${loadAtStart}, ${os.cpus().length} cores`);
const { database } = await openDataset(KIND, MESSAGES);
const db = database.db;
await ensureLoaded(
  database,
  {
    members: arg('members', DEFAULTS.members),
    channels: arg('channels', DEFAULTS.channels),
    messages: MESSAGES,
    days: arg('days', DEFAULTS.days),
    batch: arg('batch', DEFAULTS.batch),
    deadline: Date.now() + arg('timeout-min', 90) * 60_000,
  },
  {
    resume: flag('resume'),
    loadFile: path.join(here, '../analytics', `load-${KIND}-${MESSAGES}.json`),
    log: (s) => log(s),
  },
);
const vacuumed = await vacuumBusyTables(database);
const vacuumNote = vacuumed.length
  ? 'VACUUM (ANALYZE) of the busy tables first, as the nightly db.maintenance job does where autovacuum is off.'
  : 'Autovacuum on: no VACUUM by the bench.';

const one = async <T>(q: ReturnType<typeof sql>) => (await typedRows<T>(db, q))[0]!;
const sizes = await one<{ top: number; questions: number; questions_90: number }>(
  sql`select count(*)::int as top,
    count(*) filter (where ${sql.raw(questionCondition('m'))})::int as questions,
    count(*) filter (where ${sql.raw(questionCondition('m'))} and m.posted_at >= now() - interval '90 days')::int as questions_90
  from slack_messages m where m.team_id = ${TEAM} and not m.is_reply and m.deleted_at is null`,
);
log('data', sizes);

const logger = createLogger('silent');
const refuse = <T extends object>(what: string) =>
  new Proxy({} as T, {
    get: (_t, key) => () => {
      throw new Error(`the bench sends nothing (${what}.${String(key)})`);
    },
  });
const conversations = conversationsService({
  db,
  delivery: refuse<DeliveryService>('delivery'),
  slackApiUrl: () => 'https://slack.com/api/',
  llm: null,
  logger,
  // As the product's config: two connections per request on PostgreSQL unless DB_QUERY_SLICES says otherwise.
  querySlices: KIND === 'postgres' ? Number(process.env.DB_QUERY_SLICES ?? 2) : 1,
});
const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
registerErrorHandling(app);
const guard = { onRequest: async () => {}, preValidation: async () => {} };
await app.register(
  conversationsRoutes({ conversations, idempotency: refuse<IdempotencyService>('idempotency'), guard }),
  { prefix: '/api/v0' },
);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reads of known answers
async function get(p: string): Promise<{ json: any; bytes: number }> {
  const res = await fetch(`${address}/api/v0${p}`);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${body.slice(0, 300)}`);
  return { json: JSON.parse(body), bytes: body.length };
}

const busiest = channelId(1);
type Case = { group: 'getquestions' | 'getresponsetimes'; name: string; path: string };
const q = (query: string) => `/questions/getquestions/${TEAM}?${query}`;
const cases: Case[] = [
  { group: 'getquestions', name: 'workspace, 7 days (defaults)', path: q('') },
  { group: 'getquestions', name: 'workspace, 30 days', path: q('max_age_days=30') },
  { group: 'getquestions', name: 'workspace, 90 days', path: q('max_age_days=90') },
  {
    group: 'getquestions',
    name: `busiest channel (${busiest}), 30 days`,
    path: q(`max_age_days=30&channel_id=${busiest}`),
  },
  { group: 'getquestions', name: 'search "release", 30 days', path: q('max_age_days=30&q=release') },
  ...[7, 30, 90, 365].map((days) => ({
    group: 'getresponsetimes' as const,
    name: `${days} days`,
    path: `/analytics/getresponsetimes/${TEAM}?days=${days}`,
  })),
];

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;
type Result = Case & { rows: string; kb: number; p50: number; p95: number; max: number; load: string };
const results: Result[] = [];
for (const c of cases) {
  const times: number[] = [];
  let rows = '';
  let bytes = 0;
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    const s = performance.now();
    const r = await get(c.path);
    const ms = performance.now() - s;
    if (i >= WARMUPS) times.push(ms);
    rows =
      c.group === 'getquestions'
        ? `${r.json.data.length} of ${r.json.total}`
        : `${r.json.total.questions} questions, ${r.json.weeks.length} weeks`;
    bytes = r.bytes;
  }
  const r: Result = {
    ...c,
    rows,
    kb: bytes / 1024,
    p50: pct(times, 50),
    p95: pct(times, 95),
    max: Math.max(...times),
    load: os.loadavg()[0]!.toFixed(2),
  };
  results.push(r);
  log(
    `${c.group} ${c.name}: ${rows}, p50 ${r.p50.toFixed(1)} p95 ${r.p95.toFixed(1)} max ${r.max.toFixed(1)} ms`,
  );
}
await app.close();
const pgVersion =
  KIND === 'postgres'
    ? (await one<{ server_version: string }>(sql`show server_version`)).server_version
    : 'PGlite';
await database.close();
const loadAtEnd = loadAvg();

const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const md = [
  `### questions ${LABEL} — ${KIND === 'postgres' ? `PostgreSQL ${pgVersion}` : 'PGlite'}, ${new Date().toISOString().slice(0, 16)}Z`,
  '',
  `Data: ${sizes.top.toLocaleString('en')} top-level messages, ${sizes.questions.toLocaleString('en')} of them questions by the rule (${sizes.questions_90.toLocaleString('en')} in the last 90 days). ${vacuumNote}`,
  `HTTP on loopback, ${WARMUPS} warm-ups then ${RUNS} timed calls per row, one caller; Node ${process.version}, ${os.cpus().length} cores. Load average at start ${loadAtStart}, at end ${loadAtEnd}.`,
  '',
  '| route | case | rows | KB | p50 ms | p95 ms | max ms | target met | load |',
  '|---|---|---|---:|---:|---:|---:|---|---:|',
  ...results.map(
    (r) =>
      `| ${r.group} | ${r.name} | ${r.rows} | ${r.kb.toFixed(1)} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.max)} | ${r.p95 < TARGET_MS ? `yes (< ${TARGET_MS})` : `**no** (< ${TARGET_MS})`} | ${r.load} |`,
  ),
].join('\n');
console.log(md);
if (!flag('no-write')) {
  const out = path.join(here, 'RESULTS.md');
  writeSection(`questions:${LABEL}`, md, out);
  const text = fs.readFileSync(out, 'utf8');
  fs.writeFileSync(
    out,
    await prettier.format(text, { ...(await prettier.resolveConfig(out)), filepath: out }),
  );
  log(`wrote ${out}`);
}
process.exit(0);
