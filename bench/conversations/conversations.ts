/**
 * Threads, search and mentions on the analytics bench's workspace (issue #14): 50,000 members, 200 channels,
 * 5,000,000 messages over 365 days, loaded once through the ingestion path by bench/analytics/dataset.ts and
 * kept (PostgreSQL `flywheel_bench_analytics_<messages>`).
 *
 *   npx tsx bench/conversations/conversations.ts                       # load (once, ~30-45 min) + measure
 *   npx tsx bench/conversations/conversations.ts --messages 200000     # a small scratch data set
 *   options: --db postgres|pglite --messages --runs (30) --warmups (3) --timeout-min (load deadline, 90)
 *            --resume (finish a load its deadline stopped) --load-only --label NAME (the RESULTS.md section)
 *            --no-write
 *
 * Through the real routes (zod, service, repo) on a Fastify instance listening on a loopback port, the
 * workspace guard left out: GET /actions/getthreads at 30 days for the workspace and for the busiest channel
 * (the first page and the 10th through the cursor), GET /actions/searchthreads with a common word, two words,
 * a prefix, a less common word, a rare word and an absent one, GET /mentions/getmentions. --warmups calls,
 * then --runs timed calls: p50 / p95 / max. Targets: getthreads p95 < 100 ms, search p95 < 150 ms.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import * as prettier from 'prettier';
import { sql } from 'drizzle-orm';
import { vacuumBusyTables } from '../../apps/server/src/db/maintenance.ts';
import { typedRows } from '../../apps/server/src/db/sql.ts';
import { createLogger } from '../../apps/server/src/lib/logger.ts';
import type { DeliveryService } from '../../apps/server/src/modules/delivery/service.ts';
import { conversationsRoutes } from '../../apps/server/src/modules/conversations/routes.ts';
import { conversationsService, searchQueryOf } from '../../apps/server/src/modules/conversations/service.ts';
import { registerErrorHandling } from '../../apps/server/src/plugins/errors.ts';
import {
  channelId,
  DEFAULTS,
  ensureLoaded,
  openDataset,
  tailShare,
  TAIL_SIZE,
  TAIL_WORDS,
  TEAM,
  type DbKind,
} from '../analytics/dataset.ts';
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
const DAY = 86_400_000;
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
const loaded = await ensureLoaded(
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
if (flag('load-only')) {
  await database.close();
  process.exit(0);
}

// What the nightly db.maintenance job does where autovacuum does not run (this machine's PostgreSQL, PGlite).
const tVacuum = performance.now();
const vacuumed = await vacuumBusyTables(database);
const vacuumNote = vacuumed.length
  ? `VACUUM (ANALYZE) of the busy tables first, as the nightly db.maintenance job does where autovacuum is off (${((performance.now() - tVacuum) / 1000).toFixed(0)} s).`
  : 'Autovacuum on: no VACUUM by the bench.';
log(vacuumNote);

const one = async <T>(q: ReturnType<typeof sql>) => (await typedRows<T>(db, q))[0]!;
const sizes = await one<{
  messages: number;
  replies: number;
  threads_with_replies: number;
  reactions: number;
}>(
  sql`select count(*)::int as messages, count(*) filter (where is_reply)::int as replies,
    (select count(distinct (channel_id, thread_ts))::int from slack_messages where team_id = ${TEAM} and is_reply) as threads_with_replies,
    (select count(*)::int from slack_reactions where team_id = ${TEAM}) as reactions
  from slack_messages where team_id = ${TEAM}`,
);
const busiest = channelId(1);
const window30 = await one<{ all: number; busiest: number; mentions: number }>(
  sql`select count(*) filter (where not is_reply)::int as all,
    count(*) filter (where not is_reply and channel_id = ${busiest})::int as busiest,
    count(*) filter (where text like '<@%')::int as mentions
  from slack_messages where team_id = ${TEAM} and deleted_at is null and posted_at >= now() - interval '30 days'`,
);
log('data', sizes, '30 days', window30);

// ---------- the API ----------
const logger = createLogger('silent');
// The measured routes only read; a send (reply, reaction) would go through the delivery engine, not measured here.
const delivery = new Proxy({} as DeliveryService, {
  get: (_t, key) => () => {
    throw new Error(`the bench sends nothing (delivery.${String(key)})`);
  },
});
const conversations = conversationsService({
  db,
  delivery,
  slackApiUrl: () => 'https://slack.com/api/',
  llm: null,
  logger,
});
const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
registerErrorHandling(app);
// The real conversations routes; the workspace guard (token + admin check) is left out.
const guard = { onRequest: async () => {}, preValidation: async () => {} };
await app.register(conversationsRoutes({ conversations, guard }), { prefix: '/api/v0' });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reads of known answers
async function get(p: string): Promise<{ json: any; bytes: number }> {
  const res = await fetch(`${address}/api/v0${p}`);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${body.slice(0, 300)}`);
  return { json: JSON.parse(body), bytes: body.length };
}

const end = new Date();
const start = new Date(end.getTime() - 30 * DAY);
const threadsPath = (scope: string, cursor?: string) =>
  `/actions/getthreads/${TEAM}/${start.toISOString()}/${end.toISOString()}/${scope}${cursor ? `?cursor=${cursor}` : ''}`;
/** The cursor of page `n` (1-based), found by walking the pages before it. */
async function cursorOf(pathOf: (cursor?: string) => string, n: number, key = 'next_cursor') {
  let cursor: string | undefined;
  for (let i = 1; i < n; i++) {
    const { json } = await get(pathOf(cursor));
    cursor = json[key];
    if (!cursor) throw new Error(`${pathOf()}: no page ${i + 1}`);
  }
  return cursor;
}

/** How many live messages a search box's words match (once, outside the timing). */
async function matches(q: string): Promise<number> {
  const query = searchQueryOf(q)!;
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '256MB'`);
    const r = await typedRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from slack_messages m where m.team_id = ${TEAM} and m.deleted_at is null
        and to_tsvector('english', m.text) @@ ${query}`,
    );
    return r[0]!.n;
  });
}

// Search terms (see RESULTS.md): the topic vocabulary is small and skewed, so the less common and the rare
// word come from the long-tail vocabulary, picked by their expected share of messages.
const rankFor = (share: number) => {
  let best = 0;
  for (let r = 0; r < TAIL_SIZE; r++)
    if (Math.abs(Math.log(tailShare(r) / share)) < Math.abs(Math.log(tailShare(best) / share))) best = r;
  return best;
};
const lessCommon = TAIL_WORDS[rankFor(0.003)]!;
const rare = TAIL_WORDS[rankFor(20 / MESSAGES)]!;
const terms: [string, string][] = [
  ['a common word', 'release'],
  ['two words together', 'deploy pipeline'],
  ['a prefix', 'onboa'],
  ['a less common word', lessCommon],
  ['a rare word', rare],
  ['an absent word', 'zebrafish'],
];

type Case = {
  group: 'getthreads' | 'searchthreads' | 'getmentions';
  name: string;
  path: string;
  count: (json: { data: unknown[] }) => number;
  note?: string;
};
const rowsOf = (j: { data: unknown[] }) => j.data.length;
const cases: Case[] = [
  {
    group: 'getthreads',
    name: 'workspace, 30 days, page 1',
    path: threadsPath('workspace'),
    count: rowsOf,
  },
  {
    group: 'getthreads',
    name: 'workspace, 30 days, page 10 (cursor)',
    path: threadsPath('workspace', await cursorOf((c) => threadsPath('workspace', c), 10)),
    count: rowsOf,
  },
  {
    group: 'getthreads',
    name: `busiest channel (${busiest}), 30 days, page 1`,
    path: threadsPath(busiest),
    count: rowsOf,
  },
  {
    group: 'getthreads',
    name: `busiest channel (${busiest}), 30 days, page 10 (cursor)`,
    path: threadsPath(busiest, await cursorOf((c) => threadsPath(busiest, c), 10)),
    count: rowsOf,
  },
  {
    group: 'getthreads',
    name: `quiet channel (${channelId(200)}), 30 days, page 1`,
    path: threadsPath(channelId(200)),
    count: rowsOf,
  },
];
for (const [what, q] of terms) {
  const n = await matches(q);
  cases.push({
    group: 'searchthreads',
    name: `${what}: "${q}"`,
    path: `/actions/searchthreads/${TEAM}?q=${encodeURIComponent(q)}`,
    count: rowsOf,
    note: `${n.toLocaleString('en')} matching messages`,
  });
}
cases.push({
  group: 'searchthreads',
  name: `a common word in the busiest channel: "release"`,
  path: `/actions/searchthreads/${TEAM}?q=release&channel_id=${busiest}`,
  count: rowsOf,
});
const mentionsPath = (c?: string) => `/mentions/getmentions/${TEAM}${c ? `?cursor=${c}` : ''}`;
cases.push(
  { group: 'getmentions', name: 'page 1', path: mentionsPath(), count: rowsOf },
  {
    group: 'getmentions',
    name: 'page 2 (cursor)',
    path: mentionsPath(await cursorOf(mentionsPath, 2)),
    count: rowsOf,
  },
  {
    group: 'getmentions',
    name: 'with "Search thread": "release"',
    path: `/mentions/getmentions/${TEAM}?q=release`,
    count: rowsOf,
  },
);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;
const TARGET: Record<Case['group'], number | null> = {
  getthreads: 100,
  searchthreads: 150,
  getmentions: null,
};
type Result = Case & { rows: number; kb: number; p50: number; p95: number; max: number; load: string };
const results: Result[] = [];
for (const c of cases) {
  const times: number[] = [];
  let rows = 0;
  let bytes = 0;
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    const s = performance.now();
    const r = await get(c.path);
    const ms = performance.now() - s;
    if (i >= WARMUPS) times.push(ms);
    rows = c.count(r.json);
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
    `${c.group} ${c.name}: ${rows} rows, p50 ${r.p50.toFixed(1)} p95 ${r.p95.toFixed(1)} max ${r.max.toFixed(1)} ms, load ${r.load}${c.note ? `, ${c.note}` : ''}`,
  );
}
await app.close();
const pgVersion =
  KIND === 'postgres'
    ? (await one<{ server_version: string }>(sql`show server_version`)).server_version
    : 'PGlite';
await database.close();
const loadAtEnd = loadAvg();
log(`load average at end: ${loadAtEnd}`);

const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const met = (r: Result) => {
  const t = TARGET[r.group];
  return t === null ? '-' : r.p95 < t ? `yes (< ${t})` : `**no** (< ${t})`;
};
const md = [
  `### ${LABEL} — ${KIND === 'postgres' ? `PostgreSQL ${pgVersion}` : 'PGlite'}, ${new Date().toISOString().slice(0, 16)}Z`,
  '',
  `Data: ${sizes.messages.toLocaleString('en')} messages (${sizes.replies.toLocaleString('en')} replies in ${sizes.threads_with_replies.toLocaleString('en')} threads), ${sizes.reactions.toLocaleString('en')} reactions; in the last 30 days ${window30.all.toLocaleString('en')} threads (top-level messages), ${window30.busiest.toLocaleString('en')} of them in ${busiest}, ${window30.mentions.toLocaleString('en')} messages with a mention.`,
  loaded.info
    ? `Load through recordMessage: ${loaded.info.loadSeconds.toFixed(0)} s (${loaded.info.rate.toFixed(0)} messages/s)${loaded.loadedNow ? '' : ', an earlier run'}.`
    : 'Load: an earlier run.',
  vacuumNote,
  `HTTP on loopback, ${WARMUPS} warm-ups then ${RUNS} timed calls per row, one caller; Node ${process.version}, ${os.cpus().length} cores. Load average (1 / 5 / 15 min) at start ${loadAtStart}, at end ${loadAtEnd}; "load" = the 1-minute figure after the row.`,
  '',
  '| route | case | rows | KB | p50 ms | p95 ms | max ms | target met | load | note |',
  '|---|---|---:|---:|---:|---:|---:|---|---:|---|',
  ...results.map(
    (r) =>
      `| ${r.group} | ${r.name} | ${r.rows} | ${r.kb.toFixed(1)} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.max)} | ${met(r)} | ${r.load} | ${r.note ?? ''} |`,
  ),
].join('\n');
console.log(md);
if (!flag('no-write')) {
  const out = path.join(here, 'RESULTS.md');
  if (!fs.existsSync(out)) fs.writeFileSync(out, '# Conversations benchmark\n');
  writeSection(`run:${LABEL}`, md, out);
  const text = fs.readFileSync(out, 'utf8');
  fs.writeFileSync(
    out,
    await prettier.format(text, { ...(await prettier.resolveConfig(out)), filepath: out }),
  );
  log(`wrote ${out}`);
}
process.exit(0);
