/**
 * 10,000 schedules due in the same minute, two worker processes on PostgreSQL, against the emulator.
 *
 *   npx tsx bench/schedules/schedules.ts
 *   npx tsx bench/schedules/schedules.ts --schedules 2000 --members 500 --no-write
 *
 * The API runs in this process (no job workers); two `ROLE=worker` processes (apps/server/src/main.ts) share the
 * database, as in production. The schedules are written straight into `actions` (Every Day at the local
 * HH:MM of the target minute, in the workspace's timezone, each a DM to one member: 10,000 API calls would
 * measure the API, not the clock); the workers' own minute tick plans them, wakes senders, and the senders
 * split the runs by claiming them. Each run goes through the delivery engine with its own receipt.
 *
 * Reported: when each run started (its receipt was written) after its due time — p50, p95, max and the spread
 * from first to last; runs per schedule (none twice), receipts per run, and, once the engine has sent them
 * all, messages per receipt in the emulator (0 lost, 0 doubled).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { wallClock } from '@flywheel/shared/clock';
import { startEmulator } from '@flywheel/slack-emulator';
import {
  fmt,
  installThroughOAuth,
  log,
  percentile,
  mdTable,
  query,
  signedInAdmin,
  sleep,
  startServer,
  startWorker,
  stringArg,
  waitForBackfill,
  waitForDeliveries,
  writeSection,
} from '../ingest/harness.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- ground-truth rows are open JSON */

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = stringArg;
const schedulesN = Number(arg('schedules', '10000'));
const membersN = Number(arg('members', '2000'));
// As bench/delivery: Slack's windows / 20 and the server's tiers x 20 (4,000 posts a minute, 20 times a real
// workspace's pace), so the sends finish within the run without drowning the starts it measures.
const scale = Number(arg('scale', '20'));
const write = !process.argv.includes('--no-write');
const EVENT_TYPE = 'flywheel_delivery';

async function main() {
  const load0 = os.loadavg()[0]!;
  log(`schedules bench: ${schedulesN} schedules, ${membersN} members, scale ${scale}`);
  const emu = await startEmulator({
    port: 0,
    workspace: { seed: 11, members: membersN, channels: 4, days: 1 },
    rateLimits: { profile: 'real', timeScale: 1 / scale },
  });
  const teamId = emu.teamIds[0]!;
  let owner = '';
  for (const m of emu.truth(teamId).members()) if ((m as any).is_primary_owner) owner = m.id;
  const s = await startServer(
    'postgres',
    {
      app: emu.app,
      apiUrl: emu.apiUrl,
      authorizeUrl: emu.authorizeUrl,
      setEventsUrl: (u) => emu.setEventsUrl(u),
    },
    // 10,000 schedules in one minute: throughput, not the daily budget, is measured here.
    {
      SLACK_RATE_SCALE: String(scale),
      BACKFILL_DAYS: '1',
      DELIVERY_RETRY_BASE_MS: '200',
      SEND_DAILY_BUDGET: '0',
    },
    { workers: false },
  );
  // Started first: they send the sign-up mail, and tick every minute (nothing is due until the rows below).
  const workers = [startWorker(s, 'A'), startWorker(s, 'B')];
  try {
    const admin = await signedInAdmin(s);
    await installThroughOAuth(s, emu.url, owner, admin, teamId);
    await waitForBackfill(s, teamId, 10 * 60_000);
    const tz = (
      await query<{ tz: string }>(s, sql`select timezone as tz from workspaces where team_id = ${teamId}`)
    )[0]!.tz;
    const reachable = (
      await query<{ member_id: string }>(
        s,
        sql`select member_id from slack_members where team_id = ${teamId} and not is_bot and not deleted
          and member_id <> 'USLACKBOT' order by member_id`,
      )
    ).map((r) => r.member_id);
    log(`installed; timezone ${tz}; ${reachable.length} reachable members`);

    // The target: the first whole minute at least 75 s away (time to write the rows and start the workers).
    const dueMs = Math.ceil((Date.now() + 75_000) / 60_000) * 60_000;
    const due = new Date(dueMs).toISOString();
    const wall = wallClock(dueMs, tz);
    const hhmm = `${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`;
    const t0 = Date.now();
    await query(
      s,
      sql`insert into actions (team_id, kind, name, sender, message, dm_members, frequency, time, next_run_at, created_by)
        select ${teamId}, 'schedule', 'Bench schedule ' || g, 'bot', 'Good morning from schedule ' || g,
          jsonb_build_array((${JSON.stringify(reachable)}::jsonb) ->> ((g - 1) % ${reachable.length})),
          'Everyday', ${hhmm}, ${due}::timestamptz, ${admin.userid}
        from generate_series(1, ${schedulesN}) g`,
    );
    await query(s, sql`analyze actions`);
    log(`${schedulesN} schedules at ${hhmm} ${tz} (${due}) written in ${Date.now() - t0} ms`);

    // Until every schedule has its run and every run its receipt.
    const deadline = dueMs + 5 * 60_000;
    for (;;) {
      const [st] = await query<{ runs: number; sent: number }>(
        s,
        sql`select count(*)::int as runs, count(receipt_id)::int as sent from action_runs r
          join actions a on a.id = r.action_id where a.team_id = ${teamId}`,
      );
      if (Date.now() > dueMs) log(`  runs ${st!.runs}, started ${st!.sent}`);
      if (st!.sent >= schedulesN) break;
      if (Date.now() > deadline) throw new Error(`only ${st!.sent} of ${schedulesN} runs started`);
      await sleep(Date.now() < dueMs ? 5000 : 2000);
    }
    const rows = await query<{ action_id: number; runs: number; planned_ms: number; started_ms: number }>(
      s,
      sql`select r.action_id, count(*) over (partition by r.action_id)::int as runs,
          (extract(epoch from r.created_at - r.due_at) * 1000)::float8 as planned_ms,
          (extract(epoch from d.created_at - r.due_at) * 1000)::float8 as started_ms
        from action_runs r join delivery_receipts d on d.id = r.receipt_id
        where r.team_id = ${teamId}`,
    );
    const started = rows.map((r) => r.started_ms);
    const planned = rows.map((r) => r.planned_ms);
    const twice = rows.filter((r) => r.runs > 1).length;
    const [rc] = await query<{ receipts: number; runs: number }>(
      s,
      sql`select count(*)::int as receipts, count(distinct description)::int as runs from delivery_receipts
        where team_id = ${teamId} and action_type = 'Scheduled Message'`,
    );
    const within = started.filter((m) => m <= 60_000).length;
    log(
      `started: p50 ${fmt(percentile(started, 50))} ms, p95 ${fmt(percentile(started, 95))}, max ${fmt(Math.max(...started))}`,
    );

    // Then the sends themselves: every receipt processed, one message each in the emulator.
    await waitForDeliveries(s, teamId, 10 * 60_000);
    const perReceipt = new Map<number, number>();
    for (const m of emu.truth(teamId).messages() as Iterable<any>) {
      if (m.metadata?.event_type !== EVENT_TYPE) continue;
      const id = m.metadata.event_payload.receipt as number;
      perReceipt.set(id, (perReceipt.get(id) ?? 0) + 1);
    }
    const receiptIds = await query<{ id: number }>(
      s,
      sql`select id::int as id from delivery_receipts where team_id = ${teamId} and action_type = 'Scheduled Message'`,
    );
    const lost = receiptIds.filter((r) => !perReceipt.has(r.id)).length;
    const doubled = [...perReceipt.values()].filter((n) => n > 1).length;
    const [pg] = await query<{ v: string }>(s, sql`select version() as v`);

    const body = `Run: \`npx tsx bench/schedules/schedules.ts\` (${new Date().toISOString().slice(0, 10)}, ${
      pg!.v.split(' on ')[0]
    }, Node ${process.version}); ${fmt(schedulesN)} Every Day schedules at ${hhmm} ${tz}, each a DM to one of
${fmt(reachable.length)} members; two \`ROLE=worker\` processes; emulator rate limits / ${scale}, server tiers x ${scale};
load average ${fmt(load0, 2)} at start, ${fmt(os.loadavg()[0]!, 2)} at the end, ${os.cpus().length} cores; ${fmt(
      (Date.now() - started0) / 1000,
    )} s in all.

"Planned" is when the minute tick wrote the run, "started" when the run's receipt was written (the send is
queued in the delivery engine; Slack's pace decides when each message is posted).

${mdTable(
  [
    ['measure', 'value'],
    ['schedules due at the same minute', fmt(schedulesN)],
    ['runs / receipts (Scheduled Message)', `${fmt(rows.length)} / ${fmt(rc!.receipts)}`],
    ['schedules run twice', fmt(twice)],
    [
      'planned after due: p50 / p95 / max',
      `${fmt(percentile(planned, 50) / 1000, 1)} / ${fmt(percentile(planned, 95) / 1000, 1)} / ${fmt(Math.max(...planned) / 1000, 1)} s`,
    ],
    [
      'started after due: p50 / p95 / max',
      `${fmt(percentile(started, 50) / 1000, 1)} / ${fmt(percentile(started, 95) / 1000, 1)} / ${fmt(Math.max(...started) / 1000, 1)} s`,
    ],
    ['spread, first to last start', `${fmt((Math.max(...started) - Math.min(...started)) / 1000, 1)} s`],
    ['started within 60 s of due', `${fmt(within)} of ${fmt(started.length)}`],
    ['messages in the emulator: lost / doubled', `${fmt(lost)} / ${fmt(doubled)}`],
  ],
  ['l', 'r'],
)}`;
    console.log(`\n${body}\n`);
    if (write) writeSection('schedules', body, path.join(here, 'RESULTS.md'));
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await sleep(1500);
    await s.close();
    await emu.close();
  }
}
const started0 = Date.now();

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
