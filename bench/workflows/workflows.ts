/**
 * 10,000 members triggered at once by one workflow, two worker processes on PostgreSQL, against the emulator.
 *
 *   npx tsx bench/workflows/workflows.ts
 *   npx tsx bench/workflows/workflows.ts --members 2000 --no-write
 *
 * The API runs in this process (no job workers); two `ROLE=worker` processes share the database, as in
 * production. A Member Inactivity workflow (30 days) is created through the API with one task, a DM to the
 * member ('users in criteria'), no delay. Then every reachable member's last activity is set to 30 days before
 * a moment a few seconds ahead, so all of them cross the threshold at once: the workers' minute tick finds
 * them in one look, fires the workflow for each (one firing and one first step per member), wakes senders,
 * and the senders split the steps by claiming them and send each through the delivery engine with its own
 * receipt. A counting proxy in front of the emulator's Web API records every call and every 429.
 *
 * Reported: firings and first steps (none twice), receipts per step, messages per member in the emulator
 * (0 lost, 0 doubled), and the rate the messages went out at against the delivery engine's ceiling, with the
 * 429s met.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { startEmulator } from '@flywheel/slack-emulator';
import {
  countingProxy,
  fmt,
  installThroughOAuth,
  log,
  mdTable,
  percentile,
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
const membersN = Number(stringArg('members', '10000'));
// As bench/delivery and bench/schedules: Slack's windows / 20 and the server's pace x 20.
const scale = Number(stringArg('scale', '20'));
const perMinute = Number(stringArg('ceiling', '200'));
const write = !process.argv.includes('--no-write');
/** --kill: worker A is killed (SIGKILL) once 30% of the first steps are sent, and started again. */
const kill = process.argv.includes('--kill');
const EVENT_TYPE = 'flywheel_delivery';
const DAYS = 30;

async function main() {
  const started0 = Date.now();
  const load0 = os.loadavg()[0]!;
  log(`workflows bench: ${membersN} members, scale ${scale}, ceiling ${perMinute}/min x ${scale}`);
  const emu = await startEmulator({
    port: 0,
    // Some generated members are bots or deactivated: enough are made to have `members` reachable ones.
    workspace: { seed: 13, members: Math.ceil(membersN * 1.03) + 40, channels: 4, days: 1 },
    rateLimits: { profile: 'real', timeScale: 1 / scale },
    events: { timeoutMs: 3000, retryDelaysMs: [200, 1000, 5000] },
  });
  const teamId = emu.teamIds[0]!;
  let owner = '';
  for (const m of emu.truth(teamId).members()) if ((m as any).is_primary_owner) owner = m.id;
  const proxy = await countingProxy(emu.apiUrl);
  const s = await startServer(
    'postgres',
    {
      app: emu.app,
      apiUrl: proxy.apiUrl,
      authorizeUrl: emu.authorizeUrl,
      setEventsUrl: (u) => emu.setEventsUrl(u),
    },
    {
      SLACK_RATE_SCALE: String(scale),
      DELIVERY_POSTS_PER_MINUTE: String(perMinute),
      DELIVERY_RETRY_BASE_MS: '200',
      BACKFILL_DAYS: '1',
      SEND_DAILY_BUDGET: '0',
    },
    { workers: false },
  );
  const workers = [startWorker(s, 'A'), startWorker(s, 'B')];
  try {
    const admin = await signedInAdmin(s);
    await installThroughOAuth(s, emu.url, owner, admin, teamId);
    await waitForBackfill(s, teamId, 15 * 60_000);
    const reachable = (
      await query<{ member_id: string }>(
        s,
        sql`select member_id from slack_members where team_id = ${teamId} and not is_bot and not deleted
          and member_id <> 'USLACKBOT' order by member_id limit ${membersN}`,
      )
    ).map((r) => r.member_id);
    log(`installed; ${reachable.length} reachable members`);

    const res = await fetch(`${s.url}/api/v0/workflows/createworkflow`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        team_id: teamId,
        workflow_name: 'Win back the quiet',
        sender: 'b',
        trigger_type: 'inactivity',
        days: DAYS,
        tasks: [
          {
            type: 'message',
            msgTitle: 'We miss you',
            text: 'It has been a month: here is what you missed.',
            sendToSelectedUsers: true,
          },
        ],
      }),
    });
    if (res.status !== 201) throw new Error(`createworkflow: ${res.status} ${await res.text()}`);
    const wf = ((await res.json()) as any).data;
    // Everyone quiet for exactly 30 days as of two seconds from now; nobody else (the rest stay recent).
    const crossing = Date.now() + 2000;
    await query(
      s,
      sql`update slack_members set last_active_at = ${new Date(crossing - DAYS * 86_400_000).toISOString()}::timestamptz
        where team_id = ${teamId} and member_id = any(${sql.param(reachable)}::text[])`,
    );
    await query(
      s,
      sql`update slack_members set last_active_at = now() where team_id = ${teamId}
        and not (member_id = any(${sql.param(reachable)}::text[]))`,
    );
    proxy.reset();
    log(
      `workflow ${wf.workflow_id} created; ${reachable.length} members cross at ${new Date(crossing).toISOString()}`,
    );

    // Until every member has fired and every first step has its receipt.
    let killedAt = 0;
    const deadline = Date.now() + 5 * 60_000;
    for (;;) {
      const [st] = await query<{ fired: number; sent: number }>(
        s,
        sql`select (select count(*)::int from workflow_triggers where workflow_id = ${wf.workflow_id}) as fired,
          (select count(*)::int from workflow_steps where workflow_id = ${wf.workflow_id} and status = 'sent') as sent`,
      );
      log(`  fired ${st!.fired}, first steps sent ${st!.sent}`);
      if (kill && !killedAt && st!.sent >= reachable.length * 0.3) {
        killedAt = st!.sent;
        workers[0]!.kill('SIGKILL');
        log(`  worker A killed (SIGKILL) at ${killedAt} first steps sent; started again`);
        workers[0] = startWorker(s, 'A again');
      }
      if (st!.sent >= reachable.length) break;
      if (Date.now() > deadline) throw new Error(`only ${st!.sent} of ${reachable.length} first steps sent`);
      await sleep(kill ? 500 : 3000);
    }
    const steps = await query<{
      member_id: string;
      fired_ms: number;
      started_ms: number;
      receipt_id: number;
    }>(
      s,
      sql`select t.member_id, (extract(epoch from t.triggered_at) * 1000)::float8 as fired_ms,
          (extract(epoch from d.created_at) * 1000)::float8 as started_ms, s.receipt_id::int as receipt_id
        from workflow_steps s join workflow_triggers t on t.id = s.trigger_id
          join delivery_receipts d on d.id = s.receipt_id
        where s.workflow_id = ${wf.workflow_id} and s.position = 0`,
    );
    const firedAt = Math.min(...steps.map((r) => r.fired_ms));
    const startedAfter = steps.map((r) => r.started_ms - firedAt);
    const [twice] = await query<{ triggers: number; members: number; receipts: number }>(
      s,
      sql`select count(*)::int as triggers, count(distinct member_id)::int as members,
          (select count(*)::int from delivery_receipts where team_id = ${teamId} and action_type = 'Workflow') as receipts
        from workflow_triggers where workflow_id = ${wf.workflow_id}`,
    );

    // Then the messages themselves: every recipient sent, one message each in the emulator.
    await waitForDeliveries(s, teamId, 15 * 60_000);
    const ims = new Map<string, string[]>();
    for (const c of emu.truth(teamId).channels() as any[]) if (c.is_im) ims.set(c.id, c.members);
    const receipts = new Set(steps.map((r) => r.receipt_id));
    const per = new Map<string, number>();
    const times: number[] = [];
    for (const m of emu.truth(teamId).messages() as Iterable<any>) {
      if (m.metadata?.event_type !== EVENT_TYPE || !receipts.has(m.metadata.event_payload.receipt)) continue;
      const who = ims.get(m.channel)?.find((u) => u !== m.user) ?? m.channel;
      per.set(who, (per.get(who) ?? 0) + 1);
      times.push(Number(m.ts) * 1000);
    }
    times.sort((a, b) => a - b);
    const lost = reachable.filter((m) => !per.has(m)).length;
    const doubled = [...per.values()].filter((n) => n > 1).length;
    const spanMin = (times.at(-1)! - times[0]!) / 60_000;
    const rate = (times.length - 1) / spanMin;
    const ceiling = perMinute * scale;
    const post = proxy.stats.get('chat.postMessage') ?? { calls: 0, limited: 0, http5xx: 0 };
    const [pg] = await query<{ v: string }>(s, sql`select version() as v`);
    log(`rate ${fmt(rate)}/min of ${fmt(ceiling)}; lost ${lost}, doubled ${doubled}; 429s ${post.limited}`);

    const body = `Run: \`npx tsx bench/workflows/workflows.ts\` (${new Date().toISOString().slice(0, 10)}, ${
      pg!.v.split(' on ')[0]
    }, Node ${process.version}); a Member Inactivity (${DAYS} days) workflow whose one task DMs the member; ${fmt(
      reachable.length,
    )} members cross the threshold at the same moment; two \`ROLE=worker\` processes; emulator rate limits / ${scale},
server pace ${perMinute}/min x ${scale}; load average ${fmt(load0, 2)} at start, ${fmt(os.loadavg()[0]!, 2)} at the end, ${
      os.cpus().length
    } cores; ${fmt((Date.now() - started0) / 1000)} s in all.

"Fired" is the workers' minute tick recording the firings; "started" is when a first step's receipt was written
(the send is then queued in the delivery engine, whose pace decides when each message is posted).

${mdTable(
  [
    ['measure', 'value'],
    ['members triggered at once', fmt(reachable.length)],
    ['firings / distinct members', `${fmt(twice!.triggers)} / ${fmt(twice!.members)}`],
    ['first steps sent / receipts (Workflow)', `${fmt(steps.length)} / ${fmt(twice!.receipts)}`],
    [
      'first step started after the firing: p50 / p95 / max',
      `${fmt(percentile(startedAfter, 50) / 1000, 1)} / ${fmt(percentile(startedAfter, 95) / 1000, 1)} / ${fmt(Math.max(...startedAfter) / 1000, 1)} s`,
    ],
    ['messages in the emulator', fmt(times.length)],
    ['lost / doubled', `${fmt(lost)} / ${fmt(doubled)}`],
    ['delivery ceiling (per minute, scaled)', fmt(ceiling)],
    ['achieved rate, first to last message (per minute)', fmt(rate)],
    ['achieved / ceiling', `${fmt((rate / ceiling) * 100, 1)}%`],
    ['chat.postMessage calls / 429s met', `${fmt(post.calls)} / ${fmt(post.limited)}`],
    ...(kill ? [['worker A killed (SIGKILL) and restarted at', `${fmt(killedAt)} first steps sent`]] : []),
  ],
  ['l', 'r'],
)}`;
    console.log(`\n${body}\n`);
    if (write) writeSection(kill ? 'workflows-kill' : 'workflows', body, path.join(here, 'RESULTS.md'));
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await sleep(1500);
    await s.close();
    await emu.close();
    proxy.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
