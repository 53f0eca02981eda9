/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement a conversations call runs, on the bench's kept database:
 *
 *   npx tsx bench/conversations/explain.ts search deploy pipeline      # the words of a search box
 *   npx tsx bench/conversations/explain.ts mentions
 *   npx tsx bench/conversations/explain.ts threads [channel]            # 30 days, first page
 *   --messages N picks the data set (default 5,000,000; the database must be loaded).
 *
 * The repo runs on a database handle that, instead of answering each statement, answers it and prints its
 * plan (set local statements of a transaction are replayed before the plan).
 */
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { openDataset, PG_BASE, pgName, TEAM, DEFAULTS } from '../analytics/dataset.ts';
import { conversationsRepo } from '../../apps/server/src/modules/conversations/repo.ts';
import { searchQueryOf } from '../../apps/server/src/modules/conversations/service.ts';
import type { Db } from '../../apps/server/src/db/client.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
const i = process.argv.indexOf('--messages');
const MESSAGES = i > 0 ? Number(process.argv[i + 1]) : DEFAULTS.messages;
const rest = process.argv.slice(2).filter((_, k, a) => a[k] !== '--messages' && a[k - 1] !== '--messages');
const [what, ...words] = rest;
const { database } = await openDataset('postgres', MESSAGES);
const url = new URL(PG_BASE);
url.pathname = `/${pgName(MESSAGES)}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
const dialect = new PgDialect();
let local: string[] = [];
async function run(q: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(q);
  if (/^\s*(set local|select set_config)/i.test(text)) {
    local.push(text);
    return { rows: [] };
  }
  await client.query('begin');
  for (const s of local) await client.query(s);
  const plan = await client.query(`explain (analyze, buffers, costs off) ${text}`, params);
  await client.query('rollback');
  console.log(`\n----- ${text.replace(/\s+/g, ' ').slice(0, 160)}…`);
  if (local.length) console.log(`      (${local.join('; ')})`);
  console.log(plan.rows.map((r: any) => r['QUERY PLAN']).join('\n'));
  return database.db.execute(q);
}
const db: any = {
  execute: run,
  transaction: async (fn: (tx: any) => Promise<unknown>) => {
    local = [];
    try {
      return await fn(db);
    } finally {
      local = [];
    }
  },
};
const repo = conversationsRepo(db as Db);
const now = new Date();
if (what === 'search') await repo.search(TEAM, searchQueryOf(words.join(' '))!, null, 51);
else if (what === 'mentions') {
  const ids = (await repo.mentionTargets(TEAM)).map((r) => r.id);
  await repo.mentions(TEAM, { ids, q: null, userId: null, channelId: null, after: null, limit: 51 });
  await repo.mentionAuthorsAndChannels(TEAM, ids);
} else if (what === 'threads')
  await repo.threads(TEAM, {
    from: new Date(now.getTime() - 30 * 86_400_000),
    to: now,
    channelId: words[0] ?? null,
    after: null,
    limit: 51,
  });
await client.end();
await database.close();
