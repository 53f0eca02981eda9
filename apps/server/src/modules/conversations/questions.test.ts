import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { typedRows } from '../../db/sql.ts';
import { addDays, localDay, tsToDate } from '../../lib/days.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import { groundTruth } from '../../testing/ground-truth.ts';
import {
  deliverEvent,
  installThroughOAuth,
  ownerOf,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { isQuestionText } from './question-rule.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Unanswered questions and response times against an independent computation over the emulator's raw
 * messages (the TypeScript rule, the emulator's replies and reactions). The seeded history lies around the
 * latest daylight-saving change of America/New_York (the workspace's timezone here), so a week spans it.
 */

const TZ = 'America/New_York';
const DAY = 86_400_000;
let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let owner: string;
let channel: string;
let visible: Set<string>;
let dstChange: Date;
/** Reactions made by this test: when (the emulator's raw messages keep who, not when). */
const reactedAt = new Map<string, number>();
const live: Record<string, string> = {};
/**
 * Messages this test delivers itself as Slack events (Slack's raw shape), at times the emulator's live clock
 * cannot post at: a question late on the Sunday of the daylight-saving change, whose week in the workspace's
 * timezone is not its week in UTC.
 */
const delivered: any[] = [];
/** Someone in the test channel other than the asker of live.askerOnly. */
let answerer: string;

const get = (url: string, token = user.token) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(token) });
const post = (url: string, payload: object, token = user.token) =>
  env.t.app.inject({ method: 'POST', url: `/api/v0${url}`, headers: bearer(token), payload });
const team = () => env.emu.team(teamId);

/** UTC offset of `tz` at `at`, in minutes. */
function offsetOf(at: Date, tz: string): number {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return (
    (Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!) -
      Math.floor(at.getTime() / 60_000) * 60_000) /
    60_000
  );
}
/** The latest hour at which `tz` changed its offset, at least 3 days ago. */
function latestChange(tz: string): Date {
  let t = Math.floor((Date.now() - 3 * DAY) / 3_600_000) * 3_600_000;
  while (offsetOf(new Date(t), tz) === offsetOf(new Date(t - 3_600_000), tz)) t -= 3_600_000;
  return new Date(t);
}
const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));

beforeAll(async () => {
  dstChange = latestChange(TZ);
  const endTime = Math.floor(Math.min(dstChange.getTime() + 7 * DAY, Date.now() - 2 * DAY) / 1000);
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 41, members: 25, channels: 3, days: 16, endTime },
        { seed: 42, members: 8, channels: 2, days: 2 },
      ],
    },
    { BACKFILL_DAYS: '366' },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId, 120_000);
  await env.t.ctx.database.db.execute(sql`update workspaces set timezone = ${TZ} where team_id = ${teamId}`);
  // A teammate invited by e-mail, as an accepted invitation adds them: an admin without a Slack user
  // (slack_user_id null). The asker check must not let that null hide every question (`not in` a list with a null).
  const teammate = await signedInUser(env.t);
  await env.t.ctx.database.db.execute(
    sql`insert into workspace_admins (team_id, user_id, role) values (${teamId}, ${teammate.userid}, 'viewer')`,
  );
  owner = ownerOf(env, teamId);
  const truth = groundTruth(env, teamId, TZ);
  visible = new Set(truth.visible);
  const admins = adminsAndBots();
  const people = truth.people.filter((p) => !p.left && !admins.has(p.id)).map((p) => p.id);
  channel = truth.visible.find(
    (c) => [...truth.channelMembers.get(c)!].filter((m) => people.includes(m)).length >= 5,
  )!;
  const [a, b, c, d, e] = [...truth.channelMembers.get(channel)!].filter((m) => people.includes(m)) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const ask = (u: string, text: string) => team().postMessage(channel, { user: u, text }).ts;
  const reply = (u: string, ts: string, text: string) =>
    team().postMessage(channel, { user: u, text, thread_ts: ts }).ts;
  const react = (u: string, ts: string, name: string) => {
    team().react(channel, ts, name, u, true);
    reactedAt.set(`${channel}|${ts}|${u}|${name}`, Date.now());
  };
  answerer = d;
  // Answered only in its thread (no question mark: an opening word).
  live.inThread = ask(a, 'How do we rotate the staging keys');
  reply(b, live.inThread, 'With the vault CLI, docs are pinned');
  // Answered by a reaction alone.
  live.byReaction = ask(a, 'Anyone around to review my PR?');
  react(c, live.byReaction, 'eyes');
  // Only the asker replied and reacted: not answered.
  live.askerOnly = ask(b, 'Where is the onboarding wiki?');
  reply(b, live.askerOnly, 'Bumping this');
  react(b, live.askerOnly, 'pray');
  // The only reply was deleted: not answered.
  live.deletedReply = ask(c, 'Is the deploy done?');
  live.gone = reply(d, live.deletedReply, 'Yes');
  team().deleteMessage(channel, live.gone);
  // A reaction by someone else, removed again: not answered.
  live.removedReaction = ask(d, 'Which room is the meetup in?');
  team().react(channel, live.removedReaction, 'thumbsup', e, true);
  team().react(channel, live.removedReaction, 'thumbsup', e, false);
  // Not questions: a statement, a question mark inside a link and code; an owner's question.
  live.statement = ask(e, 'Shipping the release today');
  live.inLink = ask(e, 'Notes at <https://example.com/search?q=deploy|the results> and `a ? b : c`');
  live.owners = ask(owner, 'Who is coming to the meetup?');
  // To be marked handled.
  live.toHandle = ask(e, 'What time is the all-hands?');
  // 21:00 local on the Sunday of the change (after it), answered 30 minutes later; and one on the Saturday
  // before at 10:00, answered after 3 hours.
  const after = offsetOf(new Date(dstChange.getTime() + 3_600_000), TZ);
  const before = offsetOf(new Date(dstChange.getTime() - 3_600_000), TZ);
  const changeDay = localDay(dstChange, TZ);
  const localAt = (day: string, hhmm: string, offset: number) =>
    Date.parse(`${day}T${hhmm}:00Z`) - offset * 60_000;
  const tsAt = (ms: number) => `${Math.floor(ms / 1000)}.000${String(delivered.length + 1).padStart(3, '0')}`;
  const scripted = [
    {
      user: a,
      text: 'Who has the keys to the venue',
      at: localAt(changeDay, '21:00', after),
      gap: 30 * 60_000,
    },
    {
      user: b,
      text: 'Is parking free on Sundays?',
      at: localAt(addDays(changeDay, -1), '10:00', before),
      gap: 3 * 3_600_000,
    },
  ];
  for (const q of scripted) {
    const question = { type: 'message', channel, user: q.user, text: q.text, ts: tsAt(q.at) };
    delivered.push(question);
    const answer = {
      type: 'message',
      channel,
      user: c,
      text: 'Ask at the desk',
      ts: tsAt(q.at + q.gap),
      thread_ts: question.ts,
    };
    delivered.push(answer);
    for (const m of [question, answer])
      await deliverEvent(
        env,
        teamId,
        { ...m, channel_type: 'channel', event_ts: m.ts },
        `Ev${m.ts.replace('.', '')}`,
      );
  }
  await settleEvents(env);
}, 240_000);
afterAll(() => env?.close());

/** Slack admins and owners, bots, and the workspace's Flywheel admin (the installer). */
function adminsAndBots(): Set<string> {
  const out = new Set<string>([owner]);
  for (const m of [...env.emu.truth(teamId).members()] as any[])
    if (m.is_bot || m.is_admin || m.is_owner) out.add(m.id);
  return out;
}

type TruthQuestion = { channel: string; ts: string; at: number; answeredAt: number | null };

/** Every question of the workspace and its first answer, from the emulator's raw messages alone. */
function truthQuestions(): TruthQuestion[] {
  const excluded = adminsAndBots();
  const msgs = ([...env.emu.truth(teamId).messages(), ...delivered] as any[]).filter((m) =>
    visible.has(m.channel),
  );
  const replies = new Map<string, any[]>();
  for (const m of msgs)
    if (m.thread_ts && m.thread_ts !== m.ts && !m.deleted) {
      const k = `${m.channel}|${m.thread_ts}`;
      replies.set(k, [...(replies.get(k) ?? []), m]);
    }
  const out: TruthQuestion[] = [];
  for (const m of msgs) {
    if (m.deleted || (m.thread_ts && m.thread_ts !== m.ts)) continue;
    if (m.subtype && !['file_share', 'me_message'].includes(m.subtype)) continue;
    if (m.bot_id || !m.user || excluded.has(m.user)) continue;
    if (!isQuestionText(String(m.text ?? ''))) continue;
    const at = tsToDate(m.ts).getTime();
    const times: number[] = [];
    for (const r of replies.get(`${m.channel}|${m.ts}`) ?? [])
      if (r.user !== m.user) times.push(tsToDate(r.ts).getTime());
    for (const x of m.reactions ?? [])
      for (const u of x.users as string[])
        // A reaction of the history has no time of its own: the import gives it the message's.
        if (u !== m.user) times.push(reactedAt.get(`${m.channel}|${m.ts}|${u}|${x.name}`) ?? at);
    out.push({ channel: m.channel, ts: m.ts, at, answeredAt: times.length ? Math.min(...times) : null });
  }
  return out;
}

async function listAll(query: string): Promise<{ keys: string[]; total: number }> {
  const keys: string[] = [];
  let cursor = '';
  let total = -1;
  for (;;) {
    const res = await get(
      `/questions/getquestions/${teamId}?${query}&limit=50${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    total = body.total;
    keys.push(...body.data.map((q: any) => `${q.channel_id}|${q.ts}`));
    if (!body.next_cursor) return { keys, total };
    cursor = body.next_cursor;
  }
}

describe('unanswered questions', () => {
  it('lists the live questions no one else answered, not the answered, deleted-reply or non-questions', async () => {
    const { keys, total } = await listAll('answer_after_minutes=0&max_age_days=1');
    const mine = (k: keyof typeof live) => `${channel}|${live[k]}`;
    expect(keys).toEqual(
      expect.arrayContaining([
        mine('askerOnly'),
        mine('deletedReply'),
        mine('removedReaction'),
        mine('toHandle'),
      ]),
    );
    for (const k of ['inThread', 'byReaction', 'statement', 'inLink', 'owners'] as const)
      expect(keys).not.toContain(mine(k));
    expect(total).toBe(keys.length);
  });

  it("equals the emulator's truth over 90 days, and every channel filter too", async () => {
    const now = Date.now();
    const want = truthQuestions()
      .filter((q) => q.answeredAt === null && q.at >= now - 90 * DAY)
      .sort((x, y) => y.at - x.at || (x.ts < y.ts ? 1 : -1));
    expect(want.length).toBeGreaterThan(4);
    const got = await listAll('answer_after_minutes=0&max_age_days=90');
    expect([...got.keys].sort()).toEqual(want.map((q) => `${q.channel}|${q.ts}`).sort());
    expect(got.total).toBe(want.length);
    const inChannel = await listAll(`answer_after_minutes=0&max_age_days=90&channel_id=${channel}`);
    expect(inChannel.total).toBe(want.filter((q) => q.channel === channel).length);
  });

  it('waits answer_after_minutes (default 120) before listing a question', async () => {
    const { keys } = await listAll('max_age_days=1');
    expect(keys).not.toContain(`${channel}|${live.askerOnly}`);
  });

  it('searches by a word', async () => {
    const { keys } = await listAll('answer_after_minutes=0&max_age_days=1&q=onboarding');
    expect(keys).toEqual([`${channel}|${live.askerOnly}`]);
  });

  it('Mark handled takes a question off the list, is audited, and a reply by another member answers one', async () => {
    const res = await post('/questions/markhandled', {
      team_id: teamId,
      channel_id: channel,
      ts: live.toHandle,
    });
    expect(res.statusCode, res.body).toBe(200);
    // Twice is fine: the first mark stays.
    expect(
      (await post('/questions/markhandled', { team_id: teamId, channel_id: channel, ts: live.toHandle }))
        .statusCode,
    ).toBe(200);
    // The audit hook writes after the answer is sent.
    await expect
      .poll(
        async () =>
          (
            await typedRows<{ action: string }>(
              env.t.ctx.database.db,
              sql`select action from audit_events where team_id = ${teamId} and action = 'question.handled'`,
            )
          ).length,
      )
      .toBe(2);
    const before = await listAll('answer_after_minutes=0&max_age_days=1');
    expect(before.keys).not.toContain(`${channel}|${live.toHandle}`);

    team().postMessage(channel, { user: answerer, text: 'Pinned in #general', thread_ts: live.askerOnly });
    await settleEvents(env);
    const after = await listAll('answer_after_minutes=0&max_age_days=1');
    expect(after.keys).not.toContain(`${channel}|${live.askerOnly}`);
    expect(after.total).toBe(before.total - 1);
  });

  it('refuses bad input naming the field, an unknown message, and another admin', async () => {
    for (const [q, field] of [
      ['max_age_days=0', 'max_age_days'],
      ['max_age_days=abc', 'max_age_days'],
      ['answer_after_minutes=-1', 'answer_after_minutes'],
      ['channel_id=nope', 'channel_id'],
      ['limit=5000', 'limit'],
      ['cursor=%25%25', 'cursor'],
    ]) {
      const res = await get(`/questions/getquestions/${teamId}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.body).toContain(field);
    }
    const noTs = await post('/questions/markhandled', { team_id: teamId, channel_id: channel });
    expect(noTs.statusCode).toBe(400);
    expect(noTs.body).toContain('ts');
    const unknown = await post('/questions/markhandled', {
      team_id: teamId,
      channel_id: channel,
      ts: '1700000000.000001',
    });
    expect(unknown.statusCode).toBe(404);
    expect((await get(`/questions/getquestions/${teamId}`, stranger.token)).statusCode).toBe(403);
    expect((await get(`/analytics/getresponsetimes/${teamId}`, stranger.token)).statusCode).toBe(403);
    const foreign = await post(
      '/questions/markhandled',
      { team_id: teamId, channel_id: channel, ts: live.askerOnly },
      stranger.token,
    );
    expect(foreign.statusCode).toBe(403);
    const half = await get(`/analytics/getresponsetimes/${teamId}?start_date=2026-01-01`);
    expect(half.statusCode).toBe(400);
    expect(half.body).toContain('end_date');
  });
});

/** percentile_cont: linear interpolation between the closest ranks. */
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const pos = p * (v.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return v[lo]! + (pos - lo) * (v[hi]! - v[lo]!);
}
function statsOf(qs: TruthQuestion[]) {
  const secs = qs.filter((q) => q.answeredAt !== null).map((q) => Math.max(0, (q.answeredAt! - q.at) / 1000));
  return {
    questions: qs.length,
    answered: secs.length,
    median_seconds: percentile(secs, 0.5),
    p90_seconds: percentile(secs, 0.9),
    within_1h: qs.length ? secs.filter((s) => s <= 3600).length / qs.length : null,
    within_24h: qs.length ? secs.filter((s) => s <= 86400).length / qs.length : null,
  };
}
function expectStats(got: any, want: ReturnType<typeof statsOf>, what: string) {
  expect({ questions: got.questions, answered: got.answered }, what).toEqual({
    questions: want.questions,
    answered: want.answered,
  });
  for (const k of ['median_seconds', 'p90_seconds', 'within_1h', 'within_24h'] as const) {
    if (want[k] === null) expect(got[k], `${what} ${k}`).toBeNull();
    // Seconds: a reaction made by this test is timed by its event (a few ms from what the test noted).
    else expect(Math.abs(got[k] - want[k]!), `${what} ${k}`).toBeLessThan(k.endsWith('seconds') ? 2 : 1e-9);
  }
}

describe('response times', () => {
  it("equal the emulator's truth overall, per week (across the daylight-saving change) and per channel", async () => {
    const start = localDay(new Date(dstChange.getTime() - 30 * DAY), TZ);
    const end = localDay(new Date(), TZ);
    const res = await get(`/analytics/getresponsetimes/${teamId}?start_date=${start}&end_date=${end}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.timezone).toBe(TZ);
    const qs = truthQuestions().filter((q) => {
      const day = localDay(new Date(q.at), TZ);
      return day >= start && day <= end;
    });
    expect(qs.filter((q) => q.answeredAt !== null).length).toBeGreaterThan(10);
    expectStats(body.total, statsOf(qs), 'total');
    expect(body.total.within_1h).toBeLessThan(body.total.within_24h + 1e-9);

    const weekOf = (q: TruthQuestion) => mondayOf(localDay(new Date(q.at), TZ));
    const weeks = [...new Set(qs.map(weekOf))].sort();
    expect(body.weeks.map((w: any) => w.week)).toEqual(weeks);
    for (const w of body.weeks) expectStats(w, statsOf(qs.filter((q) => weekOf(q) === w.week)), w.week);
    // One week holds the change, with questions on both sides of it; and some question's week in the
    // workspace's timezone is not its week in UTC (late on a Sunday evening), so weeks are local.
    const changeWeek = mondayOf(localDay(dstChange, TZ));
    const inIt = qs.filter((q) => weekOf(q) === changeWeek);
    expect(inIt.some((q) => q.at < dstChange.getTime()) && inIt.some((q) => q.at > dstChange.getTime())).toBe(
      true,
    );
    expect(qs.some((q) => weekOf(q) !== mondayOf(new Date(q.at).toISOString().slice(0, 10)))).toBe(true);

    const channels = [...new Set(qs.map((q) => q.channel))];
    expect(body.channels.map((c: any) => c.channel_id).sort()).toEqual(channels.sort());
    for (const c of body.channels)
      expectStats(c, statsOf(qs.filter((q) => q.channel === c.channel_id)), c.channel_id);
  });

  it("counts the live cases as the rule says: thread reply and reaction answer, the asker's own and a deleted reply do not", async () => {
    const today = localDay(new Date(), TZ);
    const body = (await get(`/analytics/getresponsetimes/${teamId}?days=1`)).json();
    expect(body.end_date).toBe(today);
    const qs = truthQuestions().filter((q) => localDay(new Date(q.at), TZ) === today);
    const byTs = new Map(qs.map((q) => [q.ts, q]));
    expect(byTs.get(live.inThread!)?.answeredAt).not.toBeNull();
    expect(byTs.get(live.byReaction!)?.answeredAt).not.toBeNull();
    expect(byTs.get(live.removedReaction!)?.answeredAt).toBeNull();
    expect(byTs.get(live.deletedReply!)?.answeredAt).toBeNull();
    expect(byTs.has(live.owners!)).toBe(false);
    expectStats(body.total, statsOf(qs), 'today');
  });
});

describe('another workspace', () => {
  it('has its own, empty-handed numbers', async () => {
    const res = await get(`/analytics/getresponsetimes/${otherTeam}?days=7`, stranger.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().total.questions).toBeGreaterThanOrEqual(0);
  });
});
