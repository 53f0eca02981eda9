/**
 * Sustained Events API ingestion with rollups on, end to end through the real server.
 *
 *   npx tsx bench/ingest/events.ts                        # PostgreSQL 50,000 events, then PGlite 20,000
 *   npx tsx bench/ingest/events.ts --db postgres --events 20000 --concurrency 16
 *
 * Per database: the server (API + workers) starts on a scratch database, a small emulator workspace is
 * installed through OAuth (its history import finishes first), then a child process sends signed envelopes
 * to POST /slack/events over loopback. Intake = HTTP 200s per second; end to end = events applied (facts,
 * rollups, last_active) per second from the first send until the inbox has nothing pending. At the end the
 * stored rollups and facts are checked against the sender's exact model.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { startEmulator } from '@flywheel/slack-emulator';
import {
  fmt,
  installThroughOAuth,
  mdTable,
  query,
  signedInAdmin,
  startServer,
  waitForBackfill,
  writeSection,
  type DbKind,
  type Server,
} from './harness.ts';
import type { SenderInput, SenderResult } from './sender.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const kinds = (arg('db') ?? 'postgres,pglite').split(',') as DbKind[];
const eventsFor = (k: DbKind) => Number(arg('events') ?? (k === 'postgres' ? 50_000 : 20_000));
const concurrency = Number(arg('concurrency') ?? 16);
/** --split: intake with the workers off, then one timed drain (each side measured alone). */
const split = process.argv.includes('--split');
/**
 * --worker-process (PostgreSQL): the benchmark's server only serves HTTP (the API role); a separate
 * `ROLE=worker` server process on the same database applies the events — the scale-out shape of docs/operations/postgresql-and-scaling.md.
 */
const workerProcess = process.argv.includes('--worker-process');
/** --node-http: the sender uses node:http (an agent with keep-alive) instead of the minimal raw client. */
const client = process.argv.includes('--node-http') ? ('node' as const) : ('raw' as const);
/**
 * --sql-stats: times every statement the benchmark's process sends (node-postgres), grouped by the start of
 * its text, and prints the top ones at the end: where the database time goes.
 */
const sqlStats = process.argv.includes('--sql-stats');
const CHANNELS = 40;
const SEND_TIMEOUT_MS = 10 * 60_000;
const DRAIN_TIMEOUT_MS = 10 * 60_000;

type Sample = { t: number; stored: number; pending: number };
type Outcome = {
  kind: DbKind;
  events: number;
  result: SenderResult;
  intakeRate: number;
  endToEndRate: number;
  drainRate: number;
  drainedAt: number;
  lagSeconds: number;
  checks: { name: string; want: number; got: number }[];
  samples: Sample[];
  /** CPU per unique event (microseconds), from the sender's start to the drained inbox. */
  cpu: Cpu;
};

/**
 * Starts the sender child; once it has loaded, `onReady` runs (the CPU accounting starts there, so the
 * child's own start-up is not counted) and the child gets its input.
 */
function runChild(
  input: SenderInput,
  onReady: () => void,
  onProgress: (stored: number) => void,
): Promise<SenderResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'sender.ts'), [], { execArgv: ['--import', 'tsx'] });
    const kill = setTimeout(() => child.kill('SIGKILL'), input.timeoutMs + 90_000);
    type Message = { ready?: boolean; stored?: number; ok?: boolean; result?: SenderResult; error?: string };
    child.on('message', (m: Message) => {
      if (m.stored !== undefined) {
        onProgress(m.stored);
        return;
      }
      if (m.ready) {
        onReady();
        child.send(input);
        return;
      }
      clearTimeout(kill);
      if (m.ok) resolve(m.result!);
      else reject(new Error(m.error));
    });
    child.once('exit', (code) => {
      clearTimeout(kill);
      reject(new Error(`sender exited with ${code}`));
    });
  });
}

/** Busy CPU time of the whole machine so far (ms): every CPU's time not idle and not waiting for I/O. */
function machineBusyMs(): number {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return ((total - f[3]! - (f[4] ?? 0)) * 1000) / 100; // USER_HZ = 100 on Linux
}

/** CPU time so far (ms) of every PostgreSQL process, by pid (Linux /proc; the server is on this machine). */
function postgresCpuMs(): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(pid), ((Number(f[11]) + Number(f[12])) * 1000) / 100);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
/** PostgreSQL CPU between two snapshots: processes alive at the end (short-lived ones are missed). */
function postgresDeltaMs(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0);
  return ms;
}

type Cpu = { server: number; sender: number; postgres: number; other: number };

/**
 * Pending bench events, from the partial index of pending rows (counting every stored row scanned the whole
 * inbox, ~80 MB at 50,000 events, each time). Once a second while sending.
 */
async function pendingCount(s: Server): Promise<number> {
  const [r] = await query<{ n: number }>(
    s,
    sql`select count(*)::int as n from slack_inbox where processed_at is null and event_id like 'EvZZBENCH%'`,
  );
  return r!.n;
}

/** Whether any bench event is pending: stops at the first one (polled every 50 ms after the last send). */
async function anyPending(s: Server): Promise<boolean> {
  const [r] = await query<{ any: boolean }>(
    s,
    sql`select exists (select 1 from slack_inbox where processed_at is null and event_id like 'EvZZBENCH%') as any`,
  );
  return r!.any;
}

/** Stored and pending bench events (a full scan of the inbox: only at the end). */
async function inboxCounts(s: Server): Promise<{ stored: number; pending: number }> {
  const [r] = await query<{ stored: number; pending: number }>(
    s,
    sql`select count(*)::int as stored, (count(*) filter (where processed_at is null))::int as pending
      from slack_inbox where event_id like 'EvZZBENCH%'`,
  );
  return r!;
}

const statementTimes = new Map<string, { n: number; ms: number }>();
if (sqlStats) {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; name?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? first?.name ?? '?');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    const t0 = performance.now();
    const done = () => {
      const e = statementTimes.get(key) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += performance.now() - t0;
      statementTimes.set(key, e);
    };
    const cb = args.at(-1);
    if (typeof cb === 'function') {
      args[args.length - 1] = (...r: unknown[]) => {
        done();
        return (cb as (...a: unknown[]) => unknown)(...r);
      };
      return original.apply(this, args);
    }
    const out = original.apply(this, args);
    if (out && typeof (out as Promise<unknown>).then === 'function')
      (out as Promise<unknown>).then(done, done);
    return out;
  };
}

let worker: ChildProcess | undefined;

/** A `ROLE=worker` server process (apps/server/src/main.ts) on the benchmark server's database. */
async function startWorkerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'apps/server/src/main.ts')],
    {
      env: { ...process.env, ...env, ROLE: 'worker', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the worker process did not start within 30 s')), 30_000);
    child.stdout!.on('data', (c: Buffer) => {
      if (c.toString().includes('worker is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the worker process exited (${code})`)));
  });
  console.log('worker process started (ROLE=worker)');
  return child;
}

async function runOne(kind: DbKind): Promise<Outcome> {
  const events = eventsFor(kind);
  console.log(`\n== ${kind}: ${fmt(events)} events, concurrency ${concurrency}`);
  const emu = await startEmulator({
    port: 0,
    workspace: { seed: 11, members: 2000, channels: 8, days: 3 },
    rateLimits: { profile: 'off' },
  });
  const teamId = emu.teamIds[0]!;
  const s = await startServer(kind, emu, { SLACK_RATE_SCALE: '10000', BACKFILL_DAYS: '5' });
  try {
    const user = await signedInAdmin(s);
    let owner = '';
    for (const m of emu.truth(teamId).members())
      if ((m as { is_primary_owner?: boolean }).is_primary_owner) owner = m.id;
    await installThroughOAuth(s, emu.url, owner, user, teamId);
    await waitForBackfill(s, teamId, 120_000);
    await emu.eventsIdle();
    await s.ctx.services.events.drain();
    if (split || workerProcess) await s.ctx.queue.boss.offWork('slack.events.drain');
    if (workerProcess) worker = await startWorkerProcess(s.env);
    const truth = emu.truth(teamId);
    const members: string[] = [];
    for (const m of truth.members()) if (!m.is_bot && !m.deleted) members.push(m.id);
    const channels = Array.from({ length: CHANNELS }, (_, i) => `CBENCH${String(i).padStart(4, '0')}`);
    console.log(`installed ${teamId} (${members.length} members); sending`);

    // Once a second: events stored so far (the sender's count of first deliveries answered 200, sent over
    // IPC) and pending in the inbox; applied = stored - pending.
    const samples: Sample[] = [];
    const t0 = Date.now();
    let storedSoFar = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const stored = storedSoFar;
        samples.push({ t: Date.now() - t0, stored, pending: await pendingCount(s) });
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    const progress = setInterval(() => {
      const last = samples.at(-1);
      if (last)
        console.log(
          `  t=${(last.t / 1000).toFixed(0)}s stored ${fmt(last.stored)} applied ${fmt(last.stored - last.pending)}`,
        );
    }, 5000);

    let busy0 = 0;
    let self0 = process.cpuUsage();
    let pg0 = new Map<number, number>();
    const result = await runChild(
      {
        url: s.url,
        signingSecret: emu.app.signingSecret,
        teamId,
        appId: emu.app.appId,
        botUserId: truth.install()?.botUserId ?? 'UBOT',
        members,
        channels,
        events,
        concurrency,
        seed: 2026,
        timeoutMs: SEND_TIMEOUT_MS,
        client,
      },
      () => {
        busy0 = machineBusyMs();
        self0 = process.cpuUsage();
        pg0 = postgresCpuMs();
        statementTimes.clear();
      },
      (stored) => (storedSoFar = stored),
    );
    if (split) {
      const d0 = Date.now();
      const n = await s.ctx.services.events.drain();
      console.log(
        `split: drain alone applied ${fmt(n)} in ${fmt((Date.now() - d0) / 1000, 2)} s = ${fmt(n / ((Date.now() - d0) / 1000))}/s`,
      );
    }
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    let drainedAt = 0;
    // Every answered event is committed, so once nothing is pending everything sent is applied (the full
    // count right after confirms it).
    for (;;) {
      if (!(await anyPending(s))) {
        drainedAt = Date.now();
        const c = await inboxCounts(s);
        if (c.pending === 0 && c.stored >= result.unique) break;
      }
      if (Date.now() > deadline)
        throw new Error(`inbox not drained: ${JSON.stringify(await inboxCounts(s))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const selfCpu = process.cpuUsage(self0);
    if (sqlStats) {
      const top = [...statementTimes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30);
      console.log('statements (wall ms in total, count, text):');
      for (const [k, v] of top) console.log(`  ${fmt(v.ms).padStart(8)} ${fmt(v.n).padStart(7)}  ${k}`);
    }
    const busy = machineBusyMs() - busy0;
    const pgMs = postgresDeltaMs(pg0, postgresCpuMs());
    sampling = false;
    clearInterval(progress);
    await sampler;
    samples.push({ t: drainedAt - t0, stored: result.unique, pending: 0 });

    // Correctness: the stored rollups and facts against the sender's model.
    const [roll] = await query<{ messages: number; replies: number; reactions: number }>(
      s,
      sql`select coalesce(sum(messages), 0)::int as messages, coalesce(sum(replies), 0)::int as replies,
        coalesce(sum(reactions), 0)::int as reactions from activity_daily
        where team_id = ${teamId} and channel_id like 'CBENCH%'`,
    );
    const perChannel = await query<{
      channel_id: string;
      messages: number;
      replies: number;
      reactions: number;
    }>(
      s,
      sql`select channel_id, sum(messages)::int as messages, sum(replies)::int as replies, sum(reactions)::int as reactions
        from activity_daily where team_id = ${teamId} and channel_id like 'CBENCH%' group by channel_id`,
    );
    let channelMismatches = 0;
    for (const ch of channels) {
      const want = result.expected.byChannel[ch] ?? { messages: 0, replies: 0, reactions: 0 };
      const got = perChannel.find((r) => r.channel_id === ch) ?? { messages: 0, replies: 0, reactions: 0 };
      if (want.messages !== got.messages || want.replies !== got.replies || want.reactions !== got.reactions)
        channelMismatches++;
    }
    const [facts] = await query<{ live: number; reactions: number; failed: number }>(
      s,
      sql`select (select count(*) from slack_messages where team_id = ${teamId} and channel_id like 'CBENCH%'
          and deleted_at is null)::int as live,
        (select count(*) from slack_reactions where team_id = ${teamId} and channel_id like 'CBENCH%' and removed_at is null)::int as reactions,
        (select count(*) from slack_inbox where event_id like 'EvZZBENCH%' and error is not null)::int as failed`,
    );
    const stored = (await inboxCounts(s)).stored;
    const checks = [
      { name: 'rollup messages', want: result.expected.messages, got: roll!.messages },
      { name: 'rollup replies', want: result.expected.replies, got: roll!.replies },
      { name: 'rollup reactions', want: result.expected.reactions, got: roll!.reactions },
      { name: 'channels whose rollups differ', want: 0, got: channelMismatches },
      { name: 'live message rows', want: result.expected.liveMessageRows, got: facts!.live },
      { name: 'live reaction rows', want: result.expected.reactions, got: facts!.reactions },
      { name: 'inbox rows (retries dropped)', want: result.unique, got: stored },
      { name: 'events set aside with an error', want: 0, got: facts!.failed },
      { name: 'non-200 answers', want: 0, got: result.non200 },
    ];
    const sendSeconds = (result.lastAt - result.firstAt) / 1000;
    const e2eSeconds = (drainedAt - result.firstAt) / 1000;
    // Drain rate while there was a backlog: applied events over the span from the first to the last sample.
    const firstApplied = samples.find((x) => x.stored - x.pending > 0);
    const drainRate = firstApplied
      ? (result.unique - (firstApplied.stored - firstApplied.pending)) /
        ((drainedAt - t0 - firstApplied.t) / 1000)
      : 0;
    return {
      kind,
      events: result.sent,
      result,
      intakeRate: result.sent / sendSeconds,
      endToEndRate: result.unique / e2eSeconds,
      drainRate,
      drainedAt: drainedAt - result.firstAt,
      lagSeconds: (drainedAt - result.lastAt) / 1000,
      checks,
      samples,
      cpu: {
        server: (selfCpu.user + selfCpu.system) / result.unique,
        sender: (result.cpuMs * 1000) / result.unique,
        postgres: (pgMs * 1000) / result.unique,
        other: ((busy - (selfCpu.user + selfCpu.system) / 1000 - result.cpuMs - pgMs) * 1000) / result.unique,
      },
    };
  } finally {
    worker?.kill('SIGTERM');
    worker = undefined;
    await emu.close();
    await s.close();
  }
}

const outcomes: Outcome[] = [];
for (const kind of kinds) outcomes.push(await runOne(kind));

const table = mdTable(
  [
    [
      'database',
      'events sent',
      'intake (200/s)',
      'end to end (applied/s)',
      'drain while backlogged (/s)',
      'wall (s)',
      'lag after last send (s)',
      'HTTP p50 / p99 (ms)',
      'CPU us/event: server / sender / PostgreSQL / other',
      'exact',
    ],
    ...outcomes.map((o) => [
      o.kind === 'postgres' ? 'PostgreSQL 15' : 'PGlite',
      fmt(o.events),
      fmt(o.intakeRate),
      fmt(o.endToEndRate),
      fmt(o.drainRate),
      fmt(o.drainedAt / 1000, 1),
      fmt(o.lagSeconds, 1),
      `${o.result.latencyMs.p50} / ${o.result.latencyMs.p99}`,
      `${fmt(o.cpu.server)} / ${fmt(o.cpu.sender)} / ${o.kind === 'postgres' ? fmt(o.cpu.postgres) : '-'} / ${fmt(o.kind === 'postgres' ? o.cpu.other : o.cpu.other + o.cpu.postgres)}`,
      o.checks.every((c) => c.want === c.got) ? 'yes' : 'NO',
    ]),
  ],
  ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
);
console.log(`\n${table}\n`);
for (const o of outcomes) {
  console.log(`${o.kind} checks:`);
  for (const c of o.checks)
    console.log(`  ${c.want === c.got ? 'ok ' : 'BAD'} ${c.name}: want ${c.want}, got ${c.got}`);
}

const mix = outcomes[0]!.result.mix;
const total = Object.values(mix).reduce((a, b) => a + b, 0);
const body = [
  `Run: ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, concurrency ${concurrency}, sender in a child process (${client === 'raw' ? 'minimal keep-alive HTTP/1.1 client, raw-http.ts' : 'node:http with a keep-alive agent'}), LOG_LEVEL=warn.`,
  '',
  table,
  '',
  `Mix (${outcomes[0]!.kind} run): ${Object.entries(mix)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${((100 * v) / total).toFixed(1)}%`)
    .join(', ')}.`,
  '',
  ...outcomes.flatMap((o) => [
    `Checks (${o.kind}): ${o.checks.map((c) => `${c.name} ${fmt(c.got)}${c.want === c.got ? '' : ` (want ${fmt(c.want)})`}`).join('; ')}.`,
    '',
  ]),
].join('\n');
if (!process.argv.includes('--no-write')) writeSection('events', body);
const bad = outcomes.some((o) => o.checks.some((c) => c.want !== c.got));
process.exit(bad ? 1 : 0);
