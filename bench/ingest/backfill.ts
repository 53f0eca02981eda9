/**
 * History import of a large workspace against the emulator's scaled rate limits, through the real server.
 *
 *   npx tsx bench/ingest/backfill.ts                      # 10,000 members, ~1,000,000 messages, scale 300
 *   npx tsx bench/ingest/backfill.ts --scale 600 --messages 200000 --no-write
 *
 * The emulator runs in a child process with its rate limits on ('real' profile) and every window shrunk by
 * the scale (timeScale = 1/scale); the server runs with SLACK_RATE_SCALE = scale, so its pacer aims at the
 * same scaled tiers. One scaled minute is 60/scale seconds. The workspace is installed through the OAuth
 * path, and the import is timed from Allow until it reports done. A counting proxy in front of the
 * emulator's Web API records every call per method. At the end the rollups are checked per channel against
 * the emulator's ground truth.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { ChannelTruth, ChildReady, MethodStats, ToChild } from './emulator-child.ts';
import {
  fmt,
  installThroughOAuth,
  mdTable,
  query,
  signedInAdmin,
  startServer,
  stringArg,
  waitForBackfill,
  writeSection,
  type DbKind,
} from './harness.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = stringArg;
const scale = Number(arg('scale', '300'));
const members = Number(arg('members', '10000'));
const channels = Number(arg('channels', '100'));
const days = Number(arg('days', '120'));
const messages = Number(arg('messages', '1000000'));
const kind = arg('db', 'postgres') as DbKind;
const timeoutMin = Number(arg('timeout-min', '40'));

function childRpc(child: ChildProcess) {
  return <T>(msg: ToChild, want: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const on = (m: { type: string; error?: string }) => {
        if (m.type === 'error') {
          child.off('message', on);
          reject(new Error(m.error));
        } else if (m.type === want) {
          child.off('message', on);
          resolve(m as T);
        }
      };
      child.on('message', on);
      child.send(msg);
    });
}

const child = fork(path.join(here, 'emulator-child.ts'), [], { execArgv: ['--import', 'tsx'] });
const rpc = childRpc(child);
const killChild = () => child.kill('SIGKILL');
process.on('exit', killChild);

console.log(
  `generating ${fmt(members)} members / ${fmt(channels)} channels / ${days} days / ~${fmt(messages)} messages; scale ${scale}x`,
);
const { ready } = await rpc<{ ready: ChildReady }>(
  {
    type: 'start',
    options: {
      port: 0,
      workspace: { seed: 2026, members, channels, days, messages },
      rateLimits: { profile: 'real', timeScale: 1 / scale },
      events: { timeoutMs: 3000, retryDelaysMs: [1000, 5000] },
    },
  },
  'ready',
);
const s = await startServer(
  kind,
  {
    app: ready.app,
    apiUrl: ready.apiUrl,
    authorizeUrl: ready.authorizeUrl,
    setEventsUrl: async (url) => (await rpc<{ ok: boolean }>({ type: 'events-url', url }, 'events-url')).ok,
  },
  { SLACK_RATE_SCALE: String(scale), BACKFILL_DAYS: String(days + 2) },
);

try {
  const user = await signedInAdmin(s);
  const t0 = Date.now();
  await installThroughOAuth(s, ready.url, ready.owner, user, ready.teamId);
  let lastLog = 0;
  const row = await waitForBackfill(
    s,
    ready.teamId,
    timeoutMin * 60_000,
    (r) => {
      if (r && Date.now() - lastLog >= 15_000) {
        lastLog = Date.now();
        console.log(
          `  ${((Date.now() - t0) / 1000).toFixed(0)}s: ${fmt(r.messages)} messages, ${fmt(r.requests)} requests, ${r.rate_limited} x 429`,
        );
      }
    },
    250,
  );
  const wallMs = Date.now() - t0;
  const [times] = await query<{ ms: number }>(
    s,
    sql`select extract(epoch from finished_at - started_at) * 1000 as ms from slack_backfills where team_id = ${ready.teamId}`,
  );
  const importMs = Number(times!.ms);
  const { stats } = await rpc<{ stats: Record<string, MethodStats> }>({ type: 'stats' }, 'stats');

  // Ground truth per channel against the rollups.
  const truth = await rpc<{ channels: ChannelTruth; visible: number; total: number }>(
    { type: 'truth' },
    'truth',
  );
  const stored = await query<{ channel_id: string; messages: number; replies: number }>(
    s,
    sql`select channel_id, sum(messages)::int as messages, sum(replies)::int as replies from activity_daily
      where team_id = ${ready.teamId} group by channel_id`,
  );
  const got = new Map(stored.map((r) => [r.channel_id, r]));
  let mismatched = 0;
  let wantTotal = 0;
  let gotTotal = 0;
  for (const [ch, w] of Object.entries(truth.channels)) {
    const g = got.get(ch) ?? { messages: 0, replies: 0 };
    wantTotal += w.messages + w.replies;
    gotTotal += g.messages + g.replies;
    if (g.messages !== w.messages || g.replies !== w.replies) mismatched++;
  }
  for (const [ch, g] of got) if (!truth.channels[ch] && (g.messages || g.replies)) mismatched++;
  const [facts] = await query<{ rows: number; members: number }>(
    s,
    sql`select (select count(*) from slack_messages where team_id = ${ready.teamId})::int as rows,
      (select count(*) from slack_members where team_id = ${ready.teamId})::int as members`,
  );

  // Per method: achieved rate while the method was in use, against the scaled tier the server paces to.
  const order = [
    'users.list',
    'conversations.list',
    'conversations.join',
    'conversations.members',
    'conversations.history',
    'conversations.replies',
  ];
  const importMethods = order.filter((m) => stats[m]);
  const minute = 60_000;
  const rows = importMethods.map((m) => {
    const st = stats[m]!;
    const allowed = s.ctx.slack.perMinute(m); // per real minute, already scaled
    const spanMs = Math.max(1, st.last - st.first);
    // n calls paced at `allowed` need (n - 1) intervals; compare like with like.
    const achieved = st.calls > 1 ? ((st.calls - 1) * minute) / spanMs : 0;
    const floorMs = ((st.calls - 1) * minute) / allowed;
    return { m, st, allowed, spanMs, achieved, floorMs, pct: st.calls > 1 ? (100 * floorMs) / spanMs : 100 };
  });
  const floorMax = Math.max(...rows.map((r) => (r.st.calls * minute) / r.allowed));
  const floorSum = rows.reduce((n, r) => n + (r.st.calls * minute) / r.allowed, 0);
  const totalCalls = rows.reduce((n, r) => n + r.st.calls, 0);
  const limited = Object.values(stats).reduce((n, r) => n + r.limited, 0);

  const table = mdTable(
    [
      [
        'method',
        'calls',
        '429s',
        'active (s)',
        'achieved / min',
        'scaled tier / min',
        'published tier / min',
        '% of tier',
      ],
      ...rows.map((r) => [
        r.m,
        fmt(r.st.calls),
        fmt(r.st.limited),
        fmt(r.spanMs / 1000, 1),
        fmt(r.achieved),
        fmt(r.allowed),
        fmt(r.allowed / scale),
        `${r.pct.toFixed(1)}%`,
      ]),
    ],
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const summary = mdTable(
    [
      ['figure', 'value'],
      [
        'workspace',
        `${fmt(members)} members, ${fmt(channels)} channels (${truth.visible} readable), ${days} days`,
      ],
      ['messages in the emulator (all kinds, incl. joins/bots)', fmt(truth.total)],
      ['messages imported (rows)', fmt(facts!.rows)],
      ['countable messages + replies: truth / rollups', `${fmt(wantTotal)} / ${fmt(gotTotal)}`],
      ['channels whose rollups differ from the truth', String(mismatched)],
      ['members imported', fmt(facts!.members)],
      ['Web API calls (import)', fmt(totalCalls)],
      ['429 answers met', `${fmt(limited)} (server counted ${row.rate_limited})`],
      [
        'wall time, Allow to done',
        `${fmt(wallMs / 1000, 1)} s (= ${fmt((wallMs / 1000 / 60) * scale, 0)} min at Slack's real rates)`,
      ],
      ['import job time (started_at to finished_at)', `${fmt(importMs / 1000, 1)} s`],
      ['messages imported per second', fmt(facts!.rows / (importMs / 1000))],
      [
        'rate floor, busiest method alone (max n/tier)',
        `${fmt(floorMax / 1000, 1)} s -> import at ${((100 * floorMax) / importMs).toFixed(1)}% of it`,
      ],
      [
        'rate floor, methods one after another (sum n/tier)',
        `${fmt(floorSum / 1000, 1)} s -> import at ${((100 * floorSum) / importMs).toFixed(1)}% of it`,
      ],
    ],
    ['l', 'r'],
  );
  console.log(`\n${table}\n\n${summary}\n`);
  const ok = mismatched === 0 && wantTotal === gotTotal;
  if (!process.argv.includes('--no-write')) {
    writeSection(
      'backfill',
      [
        `Run: ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, Node ${process.version}, ${kind === 'postgres' ? 'PostgreSQL 15' : 'PGlite'}, scale ${scale}x (one Slack minute = ${fmt(60 / scale, 2)} s; emulator timeScale 1/${scale}, SLACK_RATE_SCALE=${scale}), BACKFILL_DAYS=${days + 2}, emulator in a child process.`,
        '',
        table,
        '',
        summary,
        '',
        `Exact against the emulator's ground truth: ${ok ? 'yes' : 'NO'}.`,
      ].join('\n'),
    );
  }
  child.send({ type: 'close' } satisfies ToChild);
  process.exitCode = ok ? 0 : 1;
} finally {
  await s.close();
  killChild();
}
process.exit(process.exitCode ?? 0);
