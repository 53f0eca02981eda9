/**
 * The delivery engine against the emulator's scaled rate limits, on PostgreSQL, with two worker processes.
 *
 *   npx tsx bench/delivery/delivery.ts                       # every phase
 *   npx tsx bench/delivery/delivery.ts --phase faults        # one of: throughput, fair, faults, audience, receipts
 *   npx tsx bench/delivery/delivery.ts --recipients 2000 --no-write
 *   npx tsx bench/delivery/delivery.ts --phase fair --section fair-after   # writes RESULTS.md's `delivery-fair-after`
 *
 * The API runs in this process (no job workers); two `ROLE=worker` processes (apps/server/src/main.ts) share
 * the database. The emulator runs here too, with Slack's limits ('real' profile) shrunk by --scale; the server
 * paces at DELIVERY_POSTS_PER_MINUTE x SLACK_RATE_SCALE. A counting proxy in front of the emulator's Web API
 * records every call and every 429.
 *
 * - throughput: a bulk DM to every member (--members, 10,000); achieved rate against the configured ceiling,
 *   messages per recipient in the emulator (0 lost, 0 doubled), 429s met.
 * - fair: the same bulk DM, and once a quarter of it is sent, a one-recipient DM in the same workspace and one in
 *   a second workspace (issue #30): how long each small send takes to reach Slack, how many bulk messages went
 *   before it, and the bulk's rate against the ceiling (0 lost, 0 doubled for all three). Not part of `all`.
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
/** RESULTS.md's section (`delivery-<section>`): a run kept beside earlier ones instead of replacing them. */
const section = arg('section', phase);
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
    workspaces: [
      { seed: 7, members: membersN, channels: 4, days: 1 },
      // The fair phase's second workspace (installed only there).
      { seed: 8, members: 20, channels: 2, days: 1 },
    ],
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

    if (phase === 'fair') {
      // A second workspace with its own admin: its one-recipient send must not wait for the first one's bulk.
      const team2 = emu.teamIds[1]!;
      let owner2 = '';
      for (const m of emu.truth(team2).members()) if ((m as any).is_primary_owner) owner2 = m.id;
      const admin2 = await signedInAdmin(s);
      await installThroughOAuth(s, emu.url, owner2, admin2, team2);
      await waitForBackfill(s, team2, 5 * 60_000);
      const member2 = (
        await query<{ member_id: string }>(
          s,
          sql`select member_id from slack_members where team_id = ${team2} and not is_bot and not deleted
            and member_id <> 'USLACKBOT' and member_id <> ${owner2} order by member_id limit 1`,
        )
      )[0]!.member_id;
      proxy.reset();
      const t0 = Date.now();
      const res = await api(s, admin.token, 'POST', '/quickaction/sendmessage', {
        team_id: teamId,
        sender: 'bot',
        message: 'Fairness bench: the bulk',
        sendtoworkspace: true,
      });
      const bulkId = res.data.receipt_id as number;
      log(`fair: bulk receipt ${bulkId} for ${res.data.total} recipients`);
      // Started during the bulk: once a quarter of it is sent.
      let small: { id: number; team: string; to: string; at: number; label: string }[] = [];
      let last = 0;
      const r = await waitProcessed(s, admin.token, teamId, bulkId, (x) => {
        const done = x.successful_recipient_count + x.failed_recipient_count;
        if (small.length === 0 && done >= x.total_recipient_count / 4) {
          small = [{ id: 0, team: teamId, to: reachable[reachable.length - 1]!, at: 0, label: 'same' }];
          small.push({ id: 0, team: team2, to: member2, at: 0, label: 'other' });
          // Both at once, each timed from its own request.
          for (const one of small)
            void (async () => {
              one.at = Date.now();
              const sent = await api(
                s,
                one.team === teamId ? admin.token : admin2.token,
                'POST',
                '/member/directmessage',
                {
                  team_id: one.team,
                  sender: 'bot',
                  id: one.to,
                  text: `Fairness bench: one recipient (${one.label} workspace)`,
                },
              );
              one.id = sent.data.receipt_id as number;
              log(
                `fair: one-recipient receipt ${one.id} (${one.label} workspace) at ${fmt(done)}/${fmt(x.total_recipient_count)}`,
              );
            })();
        }
        if (Date.now() - last > 10_000) {
          last = Date.now();
          log(`  ${done}/${x.total_recipient_count}`);
        }
      });
      const wall = (Date.now() - t0) / 1000;
      const bulk = deliveredPer(emu, teamId, bulkId);
      const lost = reachable.filter((m) => !bulk.per.has(m)).length;
      const doubled = [...bulk.per.values()].filter((n) => n > 1).length;
      const spanMin = (bulk.times.at(-1)! - bulk.times[0]!) / 60_000;
      const rate = (bulk.times.length - 1) / spanMin;
      const rows: string[][] = [];
      // When each recipient was recorded sent (right after Slack's answer; the emulator's ts are whole seconds).
      const sentTimes = async (receiptId: number) =>
        (
          await query<{ t: number }>(
            s,
            sql`select (extract(epoch from updated_at) * 1000)::float8 as t from delivery_recipients
              where receipt_id = ${receiptId} and state = 'sent' order by 1`,
          )
        ).map((x) => Number(x.t));
      const bulkSent = await sentTimes(bulkId);
      for (const one of small) {
        // The bulk may end first (no fairness): wait for the small send too.
        let got = deliveredPer(emu, one.team, one.id);
        for (let i = 0; i < 600 && (one.id === 0 || got.times.length === 0); i++) {
          await sleep(100);
          got = deliveredPer(emu, one.team, one.id);
        }
        const at = (await sentTimes(one.id))[0]!;
        const before = bulkSent.filter((t) => t >= one.at && t <= at).length;
        rows.push([
          `one-recipient DM, ${one.label} workspace: request to sent`,
          `${fmt((at - one.at) / 1000, 2)} s`,
        ]);
        rows.push([`  bulk messages sent between its request and it`, fmt(before)]);
        rows.push([
          `  its messages in the emulator (lost / doubled)`,
          `${fmt(got.times.length)} (${got.per.has(one.to) ? 0 : 1} / ${[...got.per.values()].filter((n) => n > 1).length})`,
        ]);
        log(
          `fair: ${one.label} workspace's one-recipient DM in ${fmt((at - one.at) / 1000, 2)} s, after ${before} bulk messages`,
        );
      }
      const post = proxy.stats.get('chat.postMessage') ?? { calls: 0, limited: 0, http5xx: 0 };
      sections.push(`### Fairness: a one-recipient DM started during a bulk DM to every member

${mdTable(
  [
    ['measure', 'value'],
    ['bulk recipients', fmt(r.total_recipient_count)],
    [
      'bulk sent / failed (receipt)',
      `${fmt(r.successful_recipient_count)} / ${fmt(r.failed_recipient_count)}`,
    ],
    ['bulk lost / doubled', `${fmt(lost)} / ${fmt(doubled)}`],
    ['configured ceiling (per minute, scaled)', fmt(ceilingPerMin)],
    ['bulk achieved rate, first to last message (per minute)', fmt(rate)],
    ['bulk achieved / ceiling', `${fmt((rate / ceilingPerMin) * 100, 1)}%`],
    ...rows,
    ['chat.postMessage calls / 429s met', `${fmt(post.calls)} / ${fmt(post.limited)}`],
    ['wall time to the bulk Processed', `${fmt(wall, 1)} s`],
  ],
  ['l', 'r'],
)}`);
      log(`fair: bulk ${fmt(rate)}/min of ${fmt(ceilingPerMin)}; lost ${lost}, doubled ${doubled}`);
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
    if (write) writeSection(`delivery-${section}`, body, path.join(here, 'RESULTS.md'));
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
