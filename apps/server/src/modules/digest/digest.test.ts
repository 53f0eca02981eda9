import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastWholeWeek, weekOfDay, type Digest } from '@flywheel/shared/digest';
import { firstRow, typedRows } from '../../db/sql.ts';
import { addDays, localDay, tsToDate } from '../../lib/days.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  drainDeliveries,
  installThroughOAuth,
  ownerOf,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { createMailer } from '../mail/service.ts';
import { DIGEST_CLAIM_SECONDS, digestService } from './service.ts';
import { digestMail, digestSlackText } from './render.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The weekly digest: its numbers against an independent count over the emulator's raw messages, its lists
 * against the product's own pages, the subscription API's refusals, and the sending: once per admin and week
 * with two workers, after a crash, through a real SMTP peer that refuses first, at 09:00 local on both sides of a
 * daylight-saving change. (The real minute tick finds a due digest on PGlite in jobs/real-tick.test.ts.)
 */

let env: SlackTestEnv;
let teamId: string;
let otherTeam: string;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let tz: string;
let owner: string;

const get = (url: string, token = user.token) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(token) });
const post = (url: string, payload: object, token = user.token) =>
  env.t.app.inject({ method: 'POST', url: `/api/v0${url}`, headers: bearer(token), payload });
const db = () => env.t.ctx.database.db;

/** The SMTP peer: refuses the next `refuse` messages (451), then accepts and keeps them. */
const smtp = { server: undefined as SMTPServer | undefined, url: '', refuse: 0, accepted: [] as string[] };

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 71, members: 30, channels: 3, days: 21 },
        { seed: 72, members: 6, channels: 2, days: 2 },
      ],
    },
    { BACKFILL_DAYS: '60' },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId, 120_000);
  // The process's own minute tick would send the due digests too, on the real clock: the tests here drive
  // `runDue` with clocks of their own (the real tick's test is jobs/real-tick.test.ts).
  await env.t.ctx.queue.boss.unschedule('digest.weekly');
  tz = await env.t.ctx.services.workspaces.timezone(teamId);
  owner = ownerOf(env, teamId);

  smtp.server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        if (smtp.refuse > 0) {
          smtp.refuse--;
          const err = new Error('Try again later') as Error & { responseCode: number };
          err.responseCode = 451;
          return done(err);
        }
        smtp.accepted.push(raw);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.server!.listen(0, '127.0.0.1', resolve));
  smtp.url = `smtp://127.0.0.1:${(smtp.server.server.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  await env?.close();
  await new Promise<void>((resolve) => (smtp.server ? smtp.server.close(resolve) : resolve()));
});

/** The emulator's raw rows, counted without the product's SQL: per kind, per member, per local day. */
function truth() {
  const t = env.emu.truth(teamId);
  const botUser = t.install()?.botUserId;
  const visible = new Set(
    ([...t.channels()] as any[])
      .filter((c) => !c.is_im && c.members.includes(botUser))
      .map((c) => c.id as string),
  );
  const bots = new Set(([...t.members()] as any[]).filter((m) => m.is_bot).map((m) => m.id as string));
  const people = ([...t.members()] as any[]).filter((m) => !m.is_bot);
  const acts: { kind: 'messages' | 'replies' | 'reactions'; user: string; day: string }[] = [];
  const tops: { ts: string; channel: string; day: string; replies: number }[] = [];
  const live = ([...t.messages()] as any[]).filter(
    (m) =>
      visible.has(m.channel) &&
      !m.deleted &&
      !(m.subtype && !['thread_broadcast', 'file_share', 'me_message'].includes(m.subtype)),
  );
  for (const m of live) {
    const day = localDay(tsToDate(m.ts), tz);
    if (!m.bot_id && m.user && !bots.has(m.user)) {
      acts.push({ kind: m.thread_ts && m.thread_ts !== m.ts ? 'replies' : 'messages', user: m.user, day });
      for (const r of m.reactions ?? [])
        for (const u of r.users) acts.push({ kind: 'reactions', user: u, day });
    }
    if (!m.thread_ts || m.thread_ts === m.ts)
      tops.push({
        ts: m.ts,
        channel: m.channel,
        day,
        replies: live.filter((r) => r.channel === m.channel && r.thread_ts === m.ts && r.ts !== m.ts).length,
      });
  }
  return { people, acts, tops };
}

describe('the digest of a week', () => {
  it('numbers: the last whole week against the week before, equal to an independent count', async () => {
    const res = await get(`/digest/${teamId}`);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as Digest;
    const week = lastWholeWeek(Date.now(), tz);
    expect(d.week).toEqual({ start: week.start, end: week.end });
    expect(d.previous_week).toEqual({ start: addDays(week.start, -7), end: addDays(week.start, -1) });
    expect(d.complete).toBe(true);
    const { people, acts } = truth();
    const inWeek = (w: { start: string; end: string }) => (x: { day: string }) =>
      x.day >= w.start && x.day <= w.end;
    const count = (w: { start: string; end: string }, kind: string) =>
      acts.filter(inWeek(w)).filter((a) => a.kind === kind).length;
    const active = (w: { start: string; end: string }) =>
      new Set(acts.filter(inWeek(w)).map((a) => a.user)).size;
    const joined = (w: { start: string; end: string }) =>
      people.filter((p) => inWeek(w)({ day: localDay(new Date(p.joined_at * 1000), tz) })).length;
    const want = (w: { start: string; end: string }) => ({
      Messages: count(w, 'messages'),
      Replies: count(w, 'replies'),
      Reactions: count(w, 'reactions'),
      'Active members': active(w),
      'New members': joined(w),
    });
    const got = (key: 'value' | 'previous') =>
      Object.fromEntries(d.numbers.filter((n) => n.name !== 'Members left').map((n) => [n.name, n[key]]));
    expect(got('value')).toEqual(want(d.week));
    expect(got('previous')).toEqual(want(d.previous_week));
    expect(count(d.week, 'messages')).toBeGreaterThan(0);
    // The change is the one Analytics shows: unsigned percent, one decimal, and its sign.
    for (const n of d.numbers) {
      const raw = n.previous === 0 ? (n.value === 0 ? 0 : 100) : ((n.value - n.previous) / n.previous) * 100;
      expect(n.percent).toBe(Math.round(Math.abs(raw) * 10) / 10);
      expect(n.sign).toBe(n.value >= n.previous ? '+' : '-');
    }
  });

  it('lists: questions, response times and top threads as their own pages give them', async () => {
    const d = (await get(`/digest/${teamId}`)).json() as Digest;
    const q = (await get(`/questions/getquestions/${teamId}?max_age_days=7&limit=5`)).json();
    expect(d.questions.total).toBe(q.total);
    expect(d.questions.top.map((x) => x.ts)).toEqual(q.data.map((x: any) => x.ts));
    const rt = (
      await get(`/analytics/getresponsetimes/${teamId}?start_date=${d.week.start}&end_date=${d.week.end}`)
    ).json();
    expect(d.response_times).toMatchObject({
      questions: rt.total.questions,
      answered: rt.total.answered,
      median_seconds: rt.total.median_seconds,
      within_24h: rt.total.within_24h,
    });
    // Top threads: the week's top-level messages with the most replies, counted from the raw messages.
    const tops = truth()
      .tops.filter((x) => x.day >= d.week.start && x.day <= d.week.end && x.replies > 0)
      .sort((a, b) => b.replies - a.replies);
    expect(tops.length).toBeGreaterThan(0);
    expect(d.threads.top.map((x) => x.replies)).toEqual(tops.slice(0, 5).map((x) => x.replies));
    for (const x of d.threads.top)
      expect(tops.find((t) => t.ts === x.ts && t.channel === x.channel_id)?.replies).toBe(x.replies);
  });

  it('members: new in the week, and level changes to Slipping and back from Slipping or Dormant', async () => {
    const week = weekOfDay(localDay(new Date(), tz), tz);
    const people = truth()
      .people.filter((p) => !p.deleted && p.id !== 'USLACKBOT')
      .map((p) => p.id as string);
    const [a, b, c, e] = people as [string, string, string, string];
    const change = (member: string, from: string | null, to: string, day: string) =>
      db().execute(sql`insert into member_level_changes (team_id, member_id, from_level, to_level, day)
        values (${teamId}, ${member}, ${from}, ${to}, ${day})`);
    await change(a, 'regular', 'slipping', week.start);
    await change(b, 'champion', 'slipping', week.start);
    await change(c, 'dormant', 'regular', week.start);
    // Not in the week; a first level (no from); a change between two active levels.
    await change(e, 'regular', 'slipping', addDays(week.start, -1));
    await change(e, null, 'slipping', week.start);
    await change(e, 'casual', 'regular', week.start);
    const d = (await get(`/digest/${teamId}?week=${week.start}`)).json() as Digest;
    expect(d.complete).toBe(false);
    expect(d.members.slipping.count).toBe(2);
    expect(d.members.slipping.members.map((m) => m.member_id).sort()).toEqual([a, b].sort());
    expect(d.members.returning).toMatchObject({ count: 1, members: [{ member_id: c }] });
    expect(d.members.slipping.link).toBe('/dashboard/members?level=slipping');
  });

  it('sends: the week’s receipts, with the failed ones linked, without the digest’s own DMs', async () => {
    const week = weekOfDay(localDay(new Date(), tz), tz);
    const members = truth()
      .people.filter((p) => !p.deleted && p.id !== 'USLACKBOT' && p.id !== owner)
      .map((p) => p.id as string);
    env.emu.queueFault({ kind: 'error', method: 'chat.postMessage', error: 'user_not_found' });
    const res = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'bot',
      message: 'Digest test send',
      channel_ids: [],
      dms: { members: members.slice(0, 3) },
    });
    expect(res.statusCode, res.body).toBe(202);
    const receipt = res.json().data.receipt_id as number;
    await drainDeliveries(env, teamId);
    const d = (await get(`/digest/${teamId}?week=${week.start}`)).json() as Digest;
    const all = (await get(`/receipts/getallreceipts/${teamId}`)).json().data as any[];
    const mine = all.filter((r) => !String(r.description).startsWith('Weekly digest'));
    expect(d.sends.count).toBe(mine.length);
    expect(d.sends).toMatchObject({ recipients: 3, sent: 2, failed: 1 });
    expect(d.sends.with_failures).toEqual([
      expect.objectContaining({
        receipt_id: receipt,
        total: 3,
        failed: 1,
        link: `/dashboard/receipts?receipt=${receipt}`,
      }),
    ]);
  });

  it('refuses bad input (400 naming the field) and another admin’s workspace (403)', async () => {
    expect((await get(`/digest/${teamId}?week=2026-02-30`)).json().message).toMatch(/week/);
    expect((await get(`/digest/${teamId}?week=2999-01-01`)).statusCode).toBe(400);
    expect((await get(`/digest/${otherTeam}`)).statusCode).toBe(403);
    expect((await get(`/digest/settings/${otherTeam}`)).statusCode).toBe(403);
    const foreign = await post('/digest/settings', { team_id: otherTeam, email: true, slack_dm: false });
    expect(foreign.statusCode).toBe(403);
    for (const [body, field] of [
      [{ team_id: teamId, email: 'yes', slack_dm: false }, 'email'],
      [{ team_id: teamId, email: true }, 'slack_dm'],
    ] as const) {
      const r = await post('/digest/settings', body);
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toMatch(field);
    }
    // Nothing was written by the refusals.
    expect((await get(`/digest/settings/${teamId}`)).json()).toMatchObject({ email: false, slack_dm: false });
    expect((await get(`/digest/${teamId}`, 'not-a-token')).statusCode).toBe(401);
  });
});

describe('the subscription', () => {
  it('is off until turned on; the Slack DM needs the admin’s Slack user', async () => {
    const before = (await get(`/digest/settings/${teamId}`)).json();
    expect(before).toMatchObject({
      email: false,
      slack_dm: false,
      day: 'mon',
      hour: 9,
      slack_user_known: true,
      timezone: tz,
    });
    expect(Date.parse(before.next_at)).toBeGreaterThan(Date.now());
    const on = await post('/digest/settings', { team_id: teamId, email: true, slack_dm: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ email: true, slack_dm: true });
    // Another day and hour: the next one is then, in the workspace's timezone; kept when not named again.
    const friday = await post('/digest/settings', {
      team_id: teamId,
      email: true,
      slack_dm: true,
      day: 'fri',
      hour: 17,
    });
    expect(friday.json()).toMatchObject({ day: 'fri', hour: 17 });
    const next = new Date(friday.json().next_at);
    expect(localDay(next, tz)).toBe(localDay(new Date(next.getTime() - 1), tz));
    expect(
      new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        weekday: 'short',
        hour: '2-digit',
        hourCycle: 'h23',
      }).format(next),
    ).toBe('Fri, 17');
    expect(
      (await post('/digest/settings', { team_id: teamId, email: true, slack_dm: true })).json(),
    ).toMatchObject({ day: 'fri', hour: 17 });
    for (const [body, field] of [
      [{ day: 'someday' }, 'day'],
      [{ hour: 24 }, 'hour'],
      [{ hour: 9.5 }, 'hour'],
    ] as const) {
      const r = await post('/digest/settings', { team_id: teamId, email: true, slack_dm: true, ...body });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toMatch(field);
    }
    await post('/digest/settings', { team_id: teamId, email: true, slack_dm: true, day: 'mon', hour: 9 });
    // An admin whose Slack user Flywheel does not know (no Add as Admin) gets a 400 for the DM.
    await db().execute(sql`update workspace_admins set slack_user_id = null
      where team_id = ${otherTeam} and user_id = ${stranger.userid}`);
    const dm = await post(
      '/digest/settings',
      { team_id: otherTeam, email: true, slack_dm: true },
      stranger.token,
    );
    expect(dm.statusCode).toBe(400);
    expect(dm.json().message).toMatch(/slack_dm/);
    expect((await get(`/digest/settings/${otherTeam}`, stranger.token)).json()).toMatchObject({
      email: false,
      slack_user_known: false,
    });
  });
});

describe('sending: once per admin and week', () => {
  /** A digest service on the test's database with its own clock and mailer (a second worker, in effect). */
  const worker = (now: number) =>
    digestService({
      db: db(),
      workspaces: env.t.ctx.services.workspaces,
      conversations: env.t.ctx.services.conversations,
      delivery: env.t.ctx.services.delivery,
      mailer: createMailer({
        db: db(),
        smtpUrl: smtp.url,
        from: 'Flywheel <hello@flywheel.test>',
        logger: env.t.ctx.logger,
        logLinks: false,
      }),
      origin: 'http://flywheel.test',
      logger: env.t.ctx.logger,
      now: () => now,
    });
  const deliveries = () =>
    typedRows<{
      week_start: string;
      email_sent_at: string | null;
      slack_receipt_id: number | null;
      done_at: string | null;
      error: string | null;
      attempts: number;
    }>(
      db(),
      sql`select week_start::text, email_sent_at::text, slack_receipt_id, done_at::text, error, attempts
        from digest_deliveries where team_id = ${teamId} and user_id = ${user.userid} order by week_start`,
    );
  const digestDms = () =>
    ([...env.emu.truth(teamId).messages()] as any[]).filter(
      (m) => String(m.text).startsWith('*Weekly digest:') && String(m.channel).startsWith('D'),
    );

  it('two workers at Monday 09:00 local: one e-mail (after the peer refused once), one Slack DM', async () => {
    await post('/digest/settings', { team_id: teamId, email: true, slack_dm: true });
    await db().execute(sql`update digest_subscriptions set enabled_at = now() - interval '30 days'
      where team_id = ${teamId} and user_id = ${user.userid}`);
    const last = lastWholeWeek(Date.now(), tz);
    const before = weekOfDay(addDays(last.start, -7), tz);
    // A minute before 09:00 on the Monday after `before`: nothing is due yet.
    expect(await worker(before.sendAt - 60_000).runDue()).toBe(0);
    smtp.refuse = 1;
    const [n1, n2] = await Promise.all([
      worker(before.sendAt).runDue(),
      worker(before.sendAt + 1000).runDue(),
    ]);
    expect(n1 + n2).toBe(1);
    // Refused by the mail server: claimed, not done, the error kept for a later tick.
    let rows = await deliveries();
    expect(rows).toEqual([
      expect.objectContaining({ week_start: before.start, email_sent_at: null, done_at: null, attempts: 1 }),
    ]);
    expect(rows[0]!.error).toMatch(/Try again later|451/);
    expect(smtp.accepted).toHaveLength(0);
    // Too soon for a retry; then the claim's time passes.
    expect(await worker(before.sendAt + 60_000).runDue()).toBe(0);
    await db()
      .execute(sql`update digest_deliveries set claimed_at = now() - make_interval(secs => ${DIGEST_CLAIM_SECONDS + 1})
      where team_id = ${teamId} and user_id = ${user.userid}`);
    const [m1, m2] = await Promise.all([
      worker(before.sendAt + 120_000).runDue(),
      worker(before.sendAt + 121_000).runDue(),
    ]);
    expect(m1 + m2).toBe(1);
    rows = await deliveries();
    expect(rows).toEqual([expect.objectContaining({ week_start: before.start, error: null, attempts: 2 })]);
    expect(rows[0]!.email_sent_at).not.toBeNull();
    expect(rows[0]!.done_at).not.toBeNull();
    expect(smtp.accepted).toHaveLength(1);
    const raw = smtp.accepted[0]!.replace(/=\r?\n/g, '');
    expect(raw).toMatch(/Subject: Weekly digest:/);
    expect(raw).toContain(`workspace=3D${teamId}`);
    await drainDeliveries(env, teamId);
    expect(digestDms()).toHaveLength(1);
    // Later ticks that week send nothing more.
    expect(await worker(before.sendAt + 3_600_000).runDue()).toBe(0);
    await drainDeliveries(env, teamId);
    expect(digestDms()).toHaveLength(1);
    expect(smtp.accepted).toHaveLength(1);
  });

  it('a process that died after the e-mail: the retry sends only the Slack DM', async () => {
    const last = lastWholeWeek(Date.now(), tz);
    // The claim as a dead process left it: e-mail sent, DM not queued, not done, claimed long ago.
    await db()
      .execute(sql`insert into digest_deliveries (team_id, user_id, week_start, claimed_at, email_sent_at)
      values (${teamId}, ${user.userid}, ${last.start}, now() - interval '1 hour', now() - interval '1 hour')`);
    const accepted = smtp.accepted.length;
    const dms = digestDms().length;
    expect(await worker(last.sendAt + 60_000).runDue()).toBe(1);
    await drainDeliveries(env, teamId);
    expect(smtp.accepted).toHaveLength(accepted);
    expect(digestDms()).toHaveLength(dms + 1);
    const row = (await deliveries()).find((r) => r.week_start === last.start)!;
    expect(row.slack_receipt_id).not.toBeNull();
    expect(row.done_at).not.toBeNull();
    // The DM's receipt is keyed: queued again for the same week, it is the same receipt.
    expect(await worker(last.sendAt + 120_000).runDue()).toBe(0);
  });

  it('turned on after Monday 09:00: that week is not sent at once; the next Monday’s is', async () => {
    const other = await signedInUser(env.t);
    await db().execute(
      sql`insert into workspace_admins (team_id, user_id, role) values (${teamId}, ${other.userid}, 'viewer')`,
    );
    await post('/digest/settings', { team_id: teamId, email: true, slack_dm: false }, other.token);
    const last = lastWholeWeek(Date.now(), tz);
    const claimed = () =>
      firstRow<{ n: number }>(
        db(),
        sql`select count(*)::int as n from digest_deliveries where user_id = ${other.userid}`,
      );
    // Now lies after last.sendAt (it is past): enabled now, the due week's digest is not theirs.
    await worker(Math.max(Date.now(), last.sendAt + 60_000)).runDue();
    expect((await claimed())!.n).toBe(0);
    const next = weekOfDay(addDays(last.start, 7), tz);
    await worker(next.sendAt).runDue();
    expect((await claimed())!.n).toBe(1);
  });
});

describe('what the digest says, rendered', () => {
  const digest = (): Digest => ({
    team_id: 'T1',
    workspace_name: 'Acme <Beta> & Co',
    timezone: 'UTC',
    week: { start: '2026-11-16', end: '2026-11-22' },
    previous_week: { start: '2026-11-09', end: '2026-11-15' },
    complete: true,
    numbers: [{ name: 'Messages', value: 120, previous: 100, percent: 20, sign: '+', comparison: 'change' }],
    response_times: {
      questions: 4,
      answered: 3,
      median_seconds: 5400,
      within_24h: 0.75,
      link: '/dashboard/analytics',
    },
    questions: {
      total: 1,
      top: [
        {
          ts: '1.1',
          channel_id: 'C1',
          channel_name: 'general',
          sender: 'Eve <script>',
          sender_id: 'U1',
          content: 'Why <!channel> & <b>bold</b>?',
          posted_at: 0,
          edited: false,
          replies: 0,
          reactions: 0,
          is_pinned: false,
          permalink: 'https://acme.slack.com/archives/C1/p11',
        },
      ],
      link: '/dashboard/actions/questions',
    },
    members: {
      new: {
        count: 7,
        members: [{ member_id: 'U2', name: 'Bob' }],
        link: '/dashboard/members?join_from=2026-11-16&join_to=2026-11-22',
      },
      slipping: { count: 0, members: [], link: '/dashboard/members?level=slipping' },
      returning: { count: 0, members: [], link: '/dashboard/members' },
    },
    threads: { top: [], link: '/dashboard/actions/threads' },
    sends: { count: 0, recipients: 0, sent: 0, failed: 0, with_failures: [], link: '/dashboard/receipts' },
  });

  it('the e-mail escapes user content and links to the workspace in the app', () => {
    const mail = digestMail('a@b.c', 'Ann', digest(), 'https://app.test');
    expect(mail.subject).toBe('Weekly digest: Acme <Beta> & Co, 16-22 Nov 2026');
    expect(mail.html).not.toMatch(/<script>|<!channel>|<b>bold/);
    expect(mail.html).toContain('Acme &lt;Beta&gt; &amp; Co');
    expect(mail.html).toContain('Why &lt;!channel&gt; &amp; &lt;b&gt;bold&lt;/b&gt;?');
    expect(mail.html).toContain('https://app.test/dashboard/actions/questions?workspace=T1');
    expect(mail.text).toContain(
      'https://app.test/dashboard/members?join_from=2026-11-16&join_to=2026-11-22&workspace=T1',
    );
    expect(mail.text).toContain('Messages: 120 (+20% vs 100)');
    expect(mail.text).toContain('median first answer 1.5 h, 75% answered within 24 h');
    expect(mail.text).toContain('New: 7: Bob and 6 more');
  });

  it('the Slack DM escapes Slack’s control characters (no @channel from a member’s question)', () => {
    const text = digestSlackText(digest(), 'https://app.test');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('Why &lt;!channel&gt; &amp; &lt;b&gt;bold&lt;/b&gt;?');
    expect(text).toContain('<https://acme.slack.com/archives/C1/p11|#general, Eve &lt;script&gt;:');
    expect(text).toContain('*Weekly digest: Acme &lt;Beta&gt; &amp; Co, 16-22 Nov 2026*');
  });
});
