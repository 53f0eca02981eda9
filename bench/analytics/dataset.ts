/**
 * The analytics bench's generated workspace, shared by the benches that measure on it (bench/analytics,
 * bench/conversations): 50,000 members, 200 channels, 5,000,000 messages over 365 days by default.
 *
 * Members, channels and join/leave events are inserted with SQL; the MESSAGES go through the ingestion path
 * (`recordMessage` in batched transactions with `factsWriter` and `rollupBuffer`, as the history import writes
 * them): conversations.history-shaped objects with threads (~25% replies), reactions inline (~35% of messages),
 * 1% bot lines.
 *
 * Text: 4-13 words, about half English filler and half a small topic vocabulary (72 stems x 3 forms, heavily
 * skewed). That alone gives no rare words and no mentions, so a second random stream (it leaves the first one,
 * and so every message's time, channel, author, thread and reactions, exactly as before) adds to 10% of the
 * messages one word of a long-tail vocabulary (TAIL_WORDS, Zipf-distributed: the first in ~0.5% of all
 * messages, the last in a handful) and to 4% a mention `<@U…>` of a member at the start (mostly the active ones,
 * among them the 20 Slack admins).
 *
 * The database is kept between runs (PostgreSQL `flywheel_bench_analytics_<messages>`, PGlite dir under /tmp),
 * so the load happens once: `openDataset` then `ensureLoaded`.
 */
import fs from 'node:fs';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../apps/server/src/db/client.ts';
import { factsWriter, recordMessage } from '../../apps/server/src/modules/workspace-data/ingest.ts';
import { rollupBuffer } from '../../apps/server/src/modules/activity/rollups.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

export const TEAM = 'TBENCHAN01';
export const TZ = 'Europe/Berlin';
export type DbKind = 'postgres' | 'pglite';
export type DatasetOptions = {
  members: number;
  channels: number;
  messages: number;
  days: number;
  /** Messages per ingestion transaction. */
  batch: number;
  /** Epoch ms: the load throws when it is still running then (finish it with `resume`). */
  deadline: number;
};
export const DEFAULTS = { members: 50_000, channels: 200, messages: 5_000_000, days: 365, batch: 5000 };
export type LoadInfo = { loadSeconds: number; rate: number };

export const memberId = (i: number) => `U${String(i).padStart(8, '0')}`;
export const channelId = (i: number) => `C${String(i).padStart(7, '0')}`;

// ---------- database ----------
export const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The kept database's name; BENCH_DATASET_DATABASE names another (e.g. a helper's own test_NAME database). */
export const pgName = (messages: number) =>
  process.env.BENCH_DATASET_DATABASE ?? `flywheel_bench_analytics_${messages}`;
export const pgliteDir = (messages: number) => `/tmp/flywheel-bench-analytics-pglite-${messages}`;
export async function pgAdmin(q: string) {
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect();
  try {
    return await c.query(q);
  } finally {
    await c.end();
  }
}

/** Opens (creating it when missing, emptying it with `fresh`) and migrates the kept database of this size. */
export async function openDataset(
  kind: DbKind,
  messages: number,
  opts: { fresh?: boolean; poolSize?: number } = {},
): Promise<{ database: Database; drop(): Promise<void> }> {
  const name = pgName(messages);
  if (opts.fresh) {
    if (kind === 'postgres') await pgAdmin(`drop database if exists ${name} with (force)`);
    else fs.rmSync(pgliteDir(messages), { recursive: true, force: true });
  }
  let url: string | undefined;
  if (kind === 'postgres') {
    const exists = await pgAdmin(`select 1 from pg_database where datname = '${name}'`);
    if (exists.rowCount === 0) await pgAdmin(`create database ${name}`);
    const u = new URL(PG_BASE);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  const database = await openDatabase(
    kind === 'postgres'
      ? { databaseUrl: url!, poolSize: opts.poolSize ?? 8 }
      : { pgliteDir: pgliteDir(messages) },
  );
  await database.migrate();
  return {
    database,
    async drop() {
      if (kind === 'postgres') await pgAdmin(`drop database if exists ${name} with (force)`);
      else fs.rmSync(pgliteDir(messages), { recursive: true, force: true });
    },
  };
}

// ---------- generator (deterministic) ----------
/** xorshift32: the same sequence for the same seed. */
const xorshift = (initial: number) => {
  let seed = initial;
  return () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
};
export const VOCAB = (() => {
  const stems =
    'launch release feature design review meeting community event workshop python rust data model deploy server client bug issue test docs guide onboarding welcome question answer idea feedback survey roadmap sprint planning demo video stream podcast article blog newsletter hiring job career mentor learn course lesson project repo branch merge build pipeline cloud cost budget metric dashboard chart report analytics growth retention signup invite partner sponsor meetup conference talk slides keynote panel'.split(
      ' ',
    );
  const out: string[] = [];
  for (const a of stems) out.push(a, `${a}s`, `${a}ing`);
  return out;
})();
const FILLER = 'the a and we you it is to of for in on this that with please thanks great'.split(' ');

/**
 * The long-tail vocabulary: made-up words (names of tools, people, places…) from syllables, distinct from
 * VOCAB and from each other, in rank order. Rank r (0-based) is drawn with weight 1 / (r + 1)^TAIL_ZIPF.
 */
export const TAIL_SIZE = 4000;
export const TAIL_ZIPF = 1.05;
/** Shares of messages that get one long-tail word, and a mention at the start. */
export const TAIL_SHARE = 0.1;
export const MENTION_SHARE = 0.04;
export const TAIL_WORDS = (() => {
  const r = xorshift(0x1b873593);
  const onset = 'b br c d dr f g gr k kl l m n p pl qu r s st t tr v z'.split(' ');
  const vowel = 'a e i o u ai ou'.split(' ');
  const coda = ['', '', 'n', 'r', 'x', 'l', 'm'];
  const pick = (xs: string[]) => xs[Math.floor(r() * xs.length)]!;
  const seen = new Set(VOCAB);
  // Made-up words that read as something else are left out.
  const unlucky =
    /vag|anal|nig|cum|tit|fag|sex|porn|rap|dic|coc|puss|slut|shit|fuc|pis|cun|nazi|kil|die|dead/;
  const out: string[] = [];
  while (out.length < TAIL_SIZE) {
    const n = 2 + Math.floor(r() * 2);
    let w = '';
    for (let i = 0; i < n; i++) w += pick(onset) + pick(vowel);
    w += pick(coda);
    if (!seen.has(w) && !unlucky.test(w)) {
      seen.add(w);
      out.push(w);
    }
  }
  return out;
})();
const TAIL_CUMULATIVE = (() => {
  const c: number[] = [];
  let s = 0;
  for (let i = 0; i < TAIL_SIZE; i++) c.push((s += 1 / Math.pow(i + 1, TAIL_ZIPF)));
  return c.map((x) => x / s);
})();
/** The share of messages expected to hold the tail word of rank `r`. */
export const tailShare = (r: number) =>
  TAIL_SHARE * (TAIL_CUMULATIVE[r]! - (r > 0 ? TAIL_CUMULATIVE[r - 1]! : 0));

/**
 * The workspace's facts by SQL: the workspace (Europe/Berlin), `o.members` members (the last 5 bots, 20 Slack
 * admins, 3% deactivated; joined uniformly over the last `o.days + 200` days), channels, join and leave events.
 * bench/analytics/cohorts.ts writes the same members.
 */
export async function insertFacts(
  db: Database['db'],
  o: Pick<DatasetOptions, 'members' | 'channels' | 'days'>,
  now: number,
): Promise<void> {
  const start = now - o.days * 86400;
  await db.execute(sql`insert into workspaces (team_id, workspace_name, domain, timezone)
    values (${TEAM}, 'Bench Analytics', 'bench-analytics', ${TZ}) on conflict do nothing`);
  await db.execute(sql`create or replace function h(a text) returns double precision language sql immutable as
    $$ select ('x' || substr(md5(a), 1, 8))::bit(32)::bigint / 4294967296.0 $$`);
  await db.execute(sql`insert into slack_members (team_id, member_id, real_name, display_name, email, joined_at,
      left_at, deleted, is_admin, is_owner, is_bot)
    select ${TEAM}, 'U' || lpad(i::text, 8, '0'), 'Member ' || i, 'member' || i, 'member' || i || '@example.com',
      to_timestamp(${now}) - (h('j' || i) * ${o.days + 200} || ' days')::interval,
      case when h('l' || i) < 0.03 then to_timestamp(${now}) - (h('lt' || i) * ${o.days - 1} || ' days')::interval end,
      h('l' || i) < 0.03, i <= 20, i = 1, i > ${o.members - 5}
    from generate_series(1, ${o.members}) i on conflict do nothing`);
  await db.execute(sql`insert into slack_channels (team_id, channel_id, name)
    select ${TEAM}, 'C' || lpad(c::text, 7, '0'), 'channel-' || c from generate_series(1, ${o.channels}) c
    on conflict do nothing`);
  await db.execute(sql`insert into slack_member_events (team_id, member_id, kind, at, day)
    select team_id, member_id, 'join', joined_at, (joined_at at time zone ${TZ})::date from slack_members
    where team_id = ${TEAM} and joined_at > to_timestamp(${start})
    union all
    select team_id, member_id, 'leave', left_at, (left_at at time zone ${TZ})::date from slack_members
    where team_id = ${TEAM} and left_at is not null on conflict do nothing`);
}

/**
 * Writes the workspace (members, channels, events by SQL; messages through `recordMessage`). With `resumeAt`,
 * the messages an interrupted load committed are generated again (same sequence) but not written.
 */
export async function loadDataset(
  database: Database,
  o: DatasetOptions,
  resumeAt = 0,
  log: (s: string) => void = console.log,
): Promise<LoadInfo> {
  const db = database.db;
  const rand = xorshift(0x2545f491);
  // The second stream (long-tail words, mentions): independent of the first, so adding it changed no time,
  // channel, author, thread or reaction.
  const rand2 = xorshift(0x68e31da4);
  /** Heavy-tailed pick in 1..n (a few are very active). */
  const skewed = (n: number, power: number, r = rand) =>
    1 + Math.min(n - 1, Math.floor(n * Math.pow(r(), power)));
  const text = (): string => {
    const n = 4 + Math.floor(rand() * 10);
    const w: string[] = [];
    for (let i = 0; i < n; i++)
      w.push(
        rand() < 0.45 ? FILLER[Math.floor(rand() * FILLER.length)]! : VOCAB[skewed(VOCAB.length, 2.2) - 1]!,
      );
    return w.join(' ');
  };
  const tailWord = () => {
    const x = rand2();
    let lo = 0;
    let hi = TAIL_SIZE - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (TAIL_CUMULATIVE[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return TAIL_WORDS[lo]!;
  };

  const t0 = performance.now();
  const now = Math.floor(Date.now() / 1000);
  const start = now - o.days * 86400;
  await insertFacts(db, o, now);
  log(`facts (members, channels, events) ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Messages: chronological, ~messages/days a day; ~25% replies; ~35% get 1-3 reactions; 1% from a bot.
  const people = o.members - 5;
  const bot = o.members; // a bot member's lines are stored and not counted
  const recent: { channel: string; ts: string }[][] = Array.from({ length: o.channels + 1 }, () => []);
  let made = 0;
  let tsSeq = 0;
  const perSecond = o.messages / (o.days * 86400);
  let batch: { channel: string; m: any }[] = [];
  const flush = async () => {
    const items = batch;
    batch = [];
    await db.transaction(async (tx) => {
      const scope = { tx, teamId: TEAM, tz: TZ, buf: rollupBuffer(), facts: factsWriter() };
      for (const it of items) await recordMessage(scope, it.channel, it.m);
      await scope.facts.flush(tx);
      await scope.buf.flush(tx);
    });
  };
  const tLoad = performance.now();
  let lastLog = tLoad;
  while (made < o.messages) {
    if (Date.now() > o.deadline) throw new Error(`load stopped at the deadline after ${made} messages`);
    // Arrival times: evenly spread over the days (the hour-of-day mix comes from the timezone offset).
    const at = start + (made + 0.5) / perSecond;
    const sec = Math.floor(at);
    const c = skewed(o.channels, 2);
    const ch = channelId(c);
    const ts = `${sec}.${String(tsSeq++ % 1_000_000).padStart(6, '0')}`;
    const user = rand() < 0.01 ? bot : skewed(people, 3);
    const parents = recent[c]!;
    const reply = parents.length > 0 && rand() < 0.25;
    const m: any = { type: 'message', ts, user: memberId(user), text: text() };
    // The second stream: a long-tail word somewhere in the text, a mention at the start.
    if (rand2() < TAIL_SHARE) {
      const words = m.text.split(' ');
      words.splice(Math.floor(rand2() * (words.length + 1)), 0, tailWord());
      m.text = words.join(' ');
    }
    if (rand2() < MENTION_SHARE) m.text = `<@${memberId(skewed(people, 3, rand2))}> ${m.text}`;
    if (user === bot) m.bot_id = 'B0BENCH';
    if (reply) m.thread_ts = parents[Math.floor(rand() * parents.length)]!.ts;
    else {
      parents.push({ channel: ch, ts });
      if (parents.length > 20) parents.shift();
    }
    if (rand() < 0.35) {
      const n = 1 + Math.floor(rand() * 3);
      m.reactions = [
        { name: 'thumbsup', users: Array.from({ length: n }, () => memberId(skewed(people, 2.5))) },
      ];
      m.reactions[0].users = [...new Set(m.reactions[0].users)];
    }
    if (made >= resumeAt) batch.push({ channel: ch, m });
    made++;
    if (batch.length >= o.batch) await flush();
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      const s = (lastLog - tLoad) / 1000;
      log(`  ${made.toLocaleString()} messages, ${(made / s).toFixed(0)}/s`);
    }
  }
  if (batch.length) await flush();
  const seconds = (performance.now() - tLoad) / 1000;
  log(
    `messages ${made.toLocaleString()} through recordMessage in ${seconds.toFixed(0)} s (${(made / seconds).toFixed(0)}/s)`,
  );
  await db.execute(sql`analyze`);
  return { loadSeconds: seconds, rate: made / seconds };
}

/** How many messages of the bench workspace the database holds. */
export async function loadedMessages(database: Database): Promise<number> {
  const r = (await database.db.execute(
    sql`select count(*)::int as n from slack_messages where team_id = ${TEAM}`,
  )) as unknown as { rows: { n: number }[] };
  return r.rows[0]!.n;
}

/**
 * Loads the workspace unless the database already holds it (then the first load's timing, kept in
 * `loadFile`, is returned); `resume` finishes a load its deadline stopped.
 */
export async function ensureLoaded(
  database: Database,
  o: DatasetOptions,
  opts: { resume?: boolean; loadFile?: string; log?: (s: string) => void } = {},
): Promise<{ info: LoadInfo | null; loadedNow: boolean }> {
  const log = opts.log ?? console.log;
  const already = await loadedMessages(database);
  let info: LoadInfo | null = null;
  let loadedNow = false;
  if (already === 0) {
    info = await loadDataset(database, o, 0, log);
    loadedNow = true;
  } else if (opts.resume && already < o.messages) {
    log(`resuming a load stopped at ${already.toLocaleString()} messages`);
    info = await loadDataset(database, o, already, log);
    loadedNow = true;
  } else {
    log(`reusing ${already.toLocaleString()} messages already loaded`);
    if (opts.loadFile && fs.existsSync(opts.loadFile))
      info = JSON.parse(fs.readFileSync(opts.loadFile, 'utf8'));
  }
  if (loadedNow && info && opts.loadFile) fs.writeFileSync(opts.loadFile, JSON.stringify(info));
  return { info, loadedNow };
}
