/**
 * The delivery engine against the emulator's scaled rate limits, on PostgreSQL, with two worker processes.
 *
 *   npx tsx bench/delivery/delivery.ts                       # every phase
 *   npx tsx bench/delivery/delivery.ts --phase faults        # one of: throughput, faults, audience, receipts
 *   npx tsx bench/delivery/delivery.ts --recipients 2000 --no-write
 *
 * The API runs in this process (no job workers); two `ROLE=worker` processes (apps/server/src/main.ts) share
 * the database. The emulator runs here too, with Slack's limits ('real' profile) shrunk by --scale; the server
 * paces at DELIVERY_POSTS_PER_MINUTE x SLACK_RATE_SCALE. A counting proxy in front of the emulator's Web API
 * records every call and every 429.
 *
 * - throughput: a bulk DM to every member (--members, 10,000); achieved rate against the configured ceiling,
 *   messages per recipient in the emulator (0 lost, 0 doubled), 429s met.
 * - faults: a bulk DM to --recipients (2,000) with 20% 429s and 5% 5xx injected on chat.postMessage, 20 of them
 *   deactivated after the send was queued, and a worker killed with SIGKILL twice mid-send (restarted each
 *   time): exactly one message per reachable recipient, the deactivated in the Failed CSV, counts = emulator.
 * - audience: resolving and enqueuing a 50,000-member audience (synthetic members added to the directory).
 * - receipts: GET /receipts/getallreceipts with 1,000 receipts and 1,000,000 recipient rows.
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
  percentile,
  mdTable,
  query,
  signedInAdmin,
  sleep,
  startServer,
  startWorker,
  stringArg,
  waitForBackfill,
  writeSection,
  type Server,
} from '../ingest/harness.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- ground-truth rows and API answers are open JSON */

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = stringArg;
const phase = arg('phase', 'all');
const scale = Number(arg('scale', '20'));
const membersN = Number(arg('members', '10000'));
const faultRecipients = Number(arg('recipients', '2000'));
const perMinute = Number(arg('ceiling', '200'));
const write = !process.argv.includes('--no-write');
const EVENT_TYPE = 'flywheel_delivery';

async function api(s: Server, token: string, method: string, url: string, body?: unknown) {
  const call = (b: unknown) =>
    fetch(`${s.url}/api/v0${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(b ? { 'content-type': 'application/json' } : {}) },
      body: b ? JSON.stringify(b) : undefined,
    });
  let res = await call(body);
  // A send to the whole workspace names its count (confirm_recipients): the bench confirms what it is told.
  if (res.status === 409) {
    const asked = (await res.clone().json()) as { code?: string; recipients?: number };
    if (asked.code === 'CONFIRM_RECIPIENTS')
      res = await call({ ...(body as object), confirm_recipients: asked.recipients });
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text.startsWith('{') ? JSON.parse(text) : text;
}

async function receipt(s: Server, token: string, teamId: string, id: number) {
  const all = await api(s, token, 'GET', `/receipts/getallreceipts/${teamId}`);
  return (all.data as any[]).find((r) => r.id === id);
}

async function waitProcessed(
  s: Server,
  token: string,
  teamId: string,
  id: number,
  onTick?: (r: any) => void,
) {
  for (;;) {
    const r = await receipt(s, token, teamId, id);
    onTick?.(r);
    if (r.successful_recipient_count + r.failed_recipient_count >= r.total_recipient_count) return r;
    await sleep(500);
  }
}

/** Messages per recipient (DM partner or channel) that carry this receipt's metadata, from the emulator. */
function deliveredPer(emu: Awaited<ReturnType<typeof startEmulator>>, teamId: string, receiptId: number) {
  const ims = new Map<string, string[]>();
  for (const c of emu.truth(teamId).channels() as any[]) if (c.is_im) ims.set(c.id, c.members);
  const per = new Map<string, number>();
  const times: number[] = [];
  for (const m of emu.truth(teamId).messages() as Iterable<any>) {
    if (m.metadata?.event_type !== EVENT_TYPE || m.metadata.event_payload.receipt !== receiptId) continue;
    const pair = ims.get(m.channel);
    const who = pair ? (pair.find((u) => u !== m.user) ?? m.user) : m.channel;
    per.set(who, (per.get(who) ?? 0) + 1);
    times.push(Number(m.ts) * 1000);
  }
  times.sort((a, b) => a - b);
  return { per, times };
}

async function main() {
  const started = Date.now();
  const load0 = os.loadavg()[0]!;
  log(
    `delivery bench: phase ${phase}, scale ${scale}, ${membersN} members, ceiling ${perMinute}/min x ${scale}`,
  );
  const emu = await startEmulator({
    port: 0,
    workspace: { seed: 7, members: membersN, channels: 4, days: 1 },
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
      DELIVERY_LEASE_SECONDS: '30',
      BACKFILL_DAYS: '1',
      // Throughput, not the daily budget, is measured here.
      SEND_DAILY_BUDGET: '0',
    },
    { workers: false },
  );
  const workers = [startWorker(s, 'A'), startWorker(s, 'B')];
  const sections: string[] = [];
  try {
    const admin = await signedInAdmin(s);
    await installThroughOAuth(s, emu.url, owner, admin, teamId);
    await waitForBackfill(s, teamId, 10 * 60_000);
    log('installed and imported');
    const reachable = (
      await query<{ member_id: string }>(
        s,
        sql`select member_id from slack_members where team_id = ${teamId} and not is_bot and not deleted
          and member_id <> 'USLACKBOT' order by member_id`,
      )
    ).map((r) => r.member_id);
    const ceilingPerMin = perMinute * scale;

    if (phase === 'all' || phase === 'throughput') {
      proxy.reset();
      const t0 = Date.now();
      const res = await api(s, admin.token, 'POST', '/quickaction/sendmessage', {
        team_id: teamId,
        sender: 'bot',
        message: 'Throughput bench: hello!',
        sendtoworkspace: true,
      });
      const answerMs = Date.now() - t0;
      const id = res.data.receipt_id as number;
      log(`throughput: receipt ${id} for ${res.data.total} recipients answered in ${answerMs} ms`);
      let last = 0;
      const r = await waitProcessed(s, admin.token, teamId, id, (x) => {
        if (Date.now() - last > 10_000) {
          last = Date.now();
          log(`  ${x.successful_recipient_count + x.failed_recipient_count}/${x.total_recipient_count}`);
        }
      });
      const wall = (Date.now() - t0) / 1000;
      const { per, times } = deliveredPer(emu, teamId, id);
      const lost = reachable.filter((m) => !per.has(m)).length;
      const doubled = [...per.values()].filter((n) => n > 1).length;
      // The achieved rate over the sending window (first to last message), against the ceiling.
      const spanMin = (times.at(-1)! - times[0]!) / 60_000;
      const rate = (times.length - 1) / spanMin;
      const post = proxy.stats.get('chat.postMessage') ?? { calls: 0, limited: 0, http5xx: 0 };
      sections.push(`### Throughput: bulk DM to every member

${mdTable(
  [
    ['measure', 'value'],
    ['recipients', fmt(r.total_recipient_count)],
    ['sent / failed (receipt)', `${fmt(r.successful_recipient_count)} / ${fmt(r.failed_recipient_count)}`],
    ['messages in the emulator', fmt(times.length)],
    ['lost (reachable member with no message)', fmt(lost)],
    ['doubled (member with 2+ messages)', fmt(doubled)],
    ['configured ceiling (per minute, scaled)', fmt(ceilingPerMin)],
    ['achieved rate, first to last message (per minute)', fmt(rate)],
    ['achieved / ceiling', `${fmt((rate / ceilingPerMin) * 100, 1)}%`],
    ['chat.postMessage calls / 429s met', `${fmt(post.calls)} / ${fmt(post.limited)}`],
    ['send request answered (resolve + enqueue)', `${answerMs} ms`],
    ['wall time to Processed', `${fmt(wall, 1)} s`],
  ],
  ['l', 'r'],
)}`);
      log(`throughput: ${fmt(rate)}/min of ${fmt(ceilingPerMin)}; lost ${lost}, doubled ${doubled}`);
    }

    if (phase === 'all' || phase === 'faults') {
      proxy.reset();
      const chosen = reachable.slice(0, faultRecipients);
      // Deactivated after queueing, at the end of the send order (ids ascending), so the directory knows first.
      const deactivated = chosen.slice(-20);
      emu.setFaults({ ratelimitedRate: 0.2, http5xxRate: 0.05, methods: ['chat.postMessage'] });
      const res = await api(s, admin.token, 'POST', '/quickaction/dmtomultipleusers', {
        team_id: teamId,
        sender: 'bot',
        users: chosen,
        text: 'Fault bench: exactly once, please',
      });
      const id = res.data.receipt_id as number;
      for (const u of deactivated)
        emu.team(teamId).updateUser(u, { deletedAt: Math.floor(Date.now() / 1000) - 1 });
      log(`faults: receipt ${id} for ${res.data.total}; 20 deactivated; 20% 429 + 5% 5xx`);
      const kills: string[] = [];
      const killAt = [0.25, 0.6];
      const t0 = Date.now();
      const r = await waitProcessed(s, admin.token, teamId, id, (x) => {
        const done = (x.successful_recipient_count + x.failed_recipient_count) / x.total_recipient_count;
        if (killAt.length && done >= killAt[0]!) {
          killAt.shift();
          const victim = kills.length % 2;
          workers[victim]!.kill('SIGKILL');
          kills.push(
            `worker ${victim ? 'B' : 'A'} at ${fmt(done * 100)}% (${fmt((Date.now() - t0) / 1000, 1)} s)`,
          );
          log(`faults: SIGKILL ${kills.at(-1)}`);
          setTimeout(() => {
            workers[victim] = startWorker(s, victim ? 'B2' : 'A2');
          }, 1000);
        }
      });
      emu.clearFaults();
      const wall = (Date.now() - t0) / 1000;
      const { per } = deliveredPer(emu, teamId, id);
      const reachableChosen = chosen.filter((u) => !deactivated.includes(u));
      const lost = reachableChosen.filter((m) => !per.has(m)).length;
      const doubled = [...per.values()].filter((n) => n > 1).length;
      const toDeactivated = deactivated.filter((u) => per.has(u)).length;
      const failedCsv = (await api(
        s,
        admin.token,
        'GET',
        `/receipts/exportrecipients/${teamId}/${id}/failed`,
      )) as string;
      const failedRows = failedCsv.trim().split('\r\n').slice(1);
      const deactivatedListed = failedRows.filter((l) => l.includes('"user_deactivated"')).length;
      const post = proxy.stats.get('chat.postMessage') ?? { calls: 0, limited: 0, http5xx: 0 };
      const history = proxy.stats.get('conversations.history') ?? { calls: 0, limited: 0, http5xx: 0 };
      sections.push(`### Faults: 20% 429s, 5% 5xx, 20 deactivated, a worker SIGKILLed twice

Kills: ${kills.join('; ')}; each worker restarted 1 s later.

${mdTable(
  [
    ['measure', 'value'],
    ['recipients', fmt(r.total_recipient_count)],
    ['sent / failed (receipt)', `${fmt(r.successful_recipient_count)} / ${fmt(r.failed_recipient_count)}`],
    [
      'reachable recipients with exactly one message',
      fmt(reachableChosen.filter((m) => per.get(m) === 1).length),
    ],
    ['lost / doubled', `${fmt(lost)} / ${fmt(doubled)}`],
    ['messages to deactivated members', fmt(toDeactivated)],
    ['Failed CSV rows / with user_deactivated', `${fmt(failedRows.length)} / ${fmt(deactivatedListed)}`],
    ['receipt sent = emulator recipients', String(r.successful_recipient_count === per.size)],
    [
      'chat.postMessage calls / 429 / 5xx',
      `${fmt(post.calls)} / ${fmt(post.limited)} / ${fmt(post.http5xx)}`,
    ],
    ['conversations.history (searches after uncertain attempts)', fmt(history.calls)],
    ['wall time to Processed', `${fmt(wall, 1)} s`],
  ],
  ['l', 'r'],
)}`);
      log(
        `faults: lost ${lost}, doubled ${doubled}, failed ${r.failed_recipient_count}, kills ${kills.length}`,
      );
    }

    if (phase === 'all' || phase === 'audience') {
      for (const w of workers) w.kill('SIGTERM');
      await sleep(2000);
      const have = reachable.length;
      const extra = Math.max(0, 50_000 - have);
      await query(
        s,
        sql`insert into slack_members (team_id, member_id, real_name, display_name, email)
          select ${teamId}, 'UZ' || lpad(g::text, 8, '0'), 'Synthetic ' || g, 'syn' || g, 'syn' || g || '@example.com'
          from generate_series(1, ${extra}) g on conflict do nothing`,
      );
      await query(s, sql`analyze slack_members`);
      const timings: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const res = await api(s, admin.token, 'POST', '/quickaction/sendmessage', {
          team_id: teamId,
          sender: 'bot',
          message: 'audience bench',
          sendtoworkspace: true,
        });
        timings.push(performance.now() - t0);
        await query(s, sql`delete from delivery_receipts where id = ${res.data.receipt_id}`);
        if (i === 0) log(`audience: ${res.data.total} recipients`);
      }
      sections.push(`### Resolving and enqueuing a 50,000-member audience

POST /quickaction/sendmessage with sendtoworkspace over ${fmt(have + extra)} members (${fmt(extra)} synthetic rows
added to the directory); workers stopped, each receipt deleted after timing. 5 runs.

${mdTable([['run', 'ms'], ...timings.map((t, i) => [String(i + 1), fmt(t)])], ['r', 'r'])}`);
      log(`audience: ${timings.map((t) => fmt(t)).join(', ')} ms`);
    }

    if (phase === 'all' || phase === 'receipts') {
      const t0 = Date.now();
      await query(
        s,
        sql`insert into delivery_receipts (team_id, action_type, description, sender, message, total, sent, failed)
          select ${teamId}, 'Bulk DM', 'bench receipt ' || g, 'bot', '{"text":"x","images":[]}'::jsonb, 1000, 990, 10
          from generate_series(1, 1000) g`,
      );
      await query(
        s,
        sql`insert into delivery_recipients (receipt_id, team_id, kind, target_id, state, attempts)
          select r.id, ${teamId}, 'member', 'UB' || lpad(g::text, 8, '0'), case when g <= 990 then 'sent' else 'failed' end, 1
          from delivery_receipts r cross join generate_series(1, 1000) g
          where r.team_id = ${teamId} and r.description like 'bench receipt %'`,
      );
      await query(s, sql`analyze delivery_receipts`);
      await query(s, sql`analyze delivery_recipients`);
      const n = (await query<{ n: number }>(s, sql`select count(*)::int as n from delivery_recipients`))[0]!
        .n;
      log(`receipts: ${fmt(n)} recipient rows inserted in ${Date.now() - t0} ms`);
      const times: number[] = [];
      for (let i = 0; i < 53; i++) {
        const t = performance.now();
        const all = await api(s, admin.token, 'GET', `/receipts/getallreceipts/${teamId}`);
        if (i >= 3) times.push(performance.now() - t);
        if (i === 0) log(`receipts: ${all.data.length} listed`);
      }
      sections.push(`### GET /receipts/getallreceipts with 1,000 receipts and ${fmt(n)} recipient rows

50 timed requests over HTTP after 3 warm-ups (counts are kept on the receipt rows).

${mdTable(
  [
    ['p50 ms', 'p95 ms', 'max ms'],
    [fmt(percentile(times, 50), 1), fmt(percentile(times, 95), 1), fmt(Math.max(...times), 1)],
  ],
  ['r', 'r', 'r'],
)}`);
      log(`receipts: p95 ${fmt(percentile(times, 95), 1)} ms`);
    }

    const pg = await query<{ v: string }>(s, sql`select version() as v`);
    const body = `Run: \`npx tsx bench/delivery/delivery.ts --phase ${phase}\` (${new Date().toISOString().slice(0, 10)}, ${
      pg[0]!.v.split(' on ')[0]
    }, Node ${process.version}); scale ${scale} (emulator windows / ${scale}, server tiers x ${scale}); load average
${fmt(load0, 2)} at start, ${fmt(os.loadavg()[0]!, 2)} at the end, ${os.cpus().length} cores; ${fmt(
      (Date.now() - started) / 1000,
    )} s in all.

${sections.join('\n\n')}`;
    console.log(`\n${body}\n`);
    if (write) writeSection(`delivery-${phase}`, body, path.join(here, 'RESULTS.md'));
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await sleep(1500);
    await s.close();
    proxy.close();
    await emu.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
