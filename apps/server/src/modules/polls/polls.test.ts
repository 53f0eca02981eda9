import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DELIVERY_TEXTS } from '@flywheel/shared/delivery';
import { POLL_TEXTS } from '@flywheel/shared/polls';
import { createLogger } from '../../lib/logger.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  deliverEvent,
  installThroughOAuth,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
  drainDeliveries as drainAll,
} from '../../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from '../delivery/engine.ts';
import { pollsCloseJob } from './jobs.ts';
import { pollsService, type PollJobs } from './service.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let members: string[];
let botMember: string;
let channel: string;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 31, members: 30, channels: 3, days: 2 },
        { seed: 32, members: 8, channels: 2, days: 2 },
      ],
    },
    { DELIVERY_RETRY_BASE_MS: '20' },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  const all = [...env.emu.truth(teamId).members()] as any[];
  members = all
    .filter((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
    .map((m) => m.id);
  botMember = all.find((m) => m.is_bot && m.id !== 'USLACKBOT' && !m.deleted).id;
  channel = (env.emu.truth(teamId).channels() as any[]).find(
    (c) => !c.is_private && !c.is_im && !c.is_archived,
  ).id;
}, 120_000);
afterAll(() => env.close());

const call = (method: 'POST' | 'DELETE' | 'GET', url: string, payload?: object, token = user.token) =>
  env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), payload });

const OPTIONS = [
  { emoji: '👍', emoji_code: 'thumbsup', value: 'Tuesday' },
  { emoji: '🎉', emoji_code: 'tada', value: 'Wednesday' },
  { emoji: '🚀', emoji_code: 'rocket', value: 'Thursday' },
];
const body = (over: object = {}) => ({
  team_id: teamId,
  channel_ids: [channel],
  poll_question: 'Which day suits the *meetup*?',
  htmlquestion: '<p>Which day suits the <strong>meetup</strong>?</p>',
  options: OPTIONS,
  sender: 'b',
  type: 'instant',
  images: [],
  ...over,
});

const db = () => env.t.ctx.database.db;

const drainDeliveries = () => drainAll(env, teamId);

/** The poll's message in Slack (the emulator's ground truth). */
function slackMessage(receiptId: number): any {
  return ([...env.emu.truth(teamId).messages({ channel })] as any[]).find(
    (m) => m.metadata?.event_type === DELIVERY_EVENT_TYPE && m.metadata.event_payload.receipt === receiptId,
  );
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The message_changed events Slack sent for a message: one per chat.update that reached it. */
const editsOf = (ts: string) =>
  env.emu
    .deliveries()
    .filter((d) => {
      const e = (d.envelope as any).event;
      return d.teamId === teamId && e?.subtype === 'message_changed' && e.message?.ts === ts;
    })
    .map((d) => (d.envelope as any).event.message.text as string);

const noJobs: PollJobs = { refresh: async () => {}, closeAt: async () => {}, remove: async () => {} };
const serviceAt = (clock: () => number) =>
  pollsService({
    db: db(),
    audience: env.t.ctx.services.audience,
    delivery: env.t.ctx.services.delivery,
    timezoneOf: async () => 'UTC',
    jobs: noJobs,
    logger: createLogger('silent'),
    now: clock,
  });

describe('create poll: validation texts', () => {
  const refused = async (over: object, text: string) => {
    const res = await call('POST', '/poll/createpoll', body(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(text);
  };

  it('every option needs an emoji, its code and a value; at least one option', async () => {
    await refused({ options: [] }, POLL_TEXTS.fillOptions);
    await refused(
      { options: [{ emoji: '👍', emoji_code: 'thumbsup', value: '  ' }] },
      POLL_TEXTS.fillOptions,
    );
    await refused({ options: [{ emoji: '', emoji_code: 'thumbsup', value: 'Yes' }] }, POLL_TEXTS.fillOptions);
    await refused({ options: [{ emoji: '👍', emoji_code: '', value: 'Yes' }] }, POLL_TEXTS.fillOptions);
  });

  it('at most 5 options, each with its own emoji', async () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((v, i) => ({
      emoji: '🙂',
      emoji_code: `e${i}`,
      value: v,
    }));
    await refused({ options: six }, POLL_TEXTS.maxOptions);
    await refused({ options: [OPTIONS[0], { ...OPTIONS[1], emoji_code: '+1' }] }, POLL_TEXTS.duplicateEmoji);
  });

  it('channels, question, schedule and end time', async () => {
    await refused({ channel_ids: [] }, POLL_TEXTS.chooseChannel);
    await refused({ poll_question: '   ' }, POLL_TEXTS.emptyQuestion);
    await refused({ type: 'scheduled' }, POLL_TEXTS.scheduleTime);
    await refused(
      { type: 'scheduled', post_at: new Date(Date.now() - 60_000).toISOString() },
      POLL_TEXTS.pastTime,
    );
    await refused(
      { type: 'scheduled', post_at: new Date(Date.now() + 5 * 60_000).toISOString() },
      POLL_TEXTS.invalidRange,
    );
    await refused({ expiry_ts: new Date(Date.now() - 1000).toISOString() }, POLL_TEXTS.endAfterStart);
    await refused({ expiry_ts: new Date(Date.now() + 100 * 86_400_000).toISOString() }, POLL_TEXTS.endTooFar);
    await refused({ sender: 'nobody' }, DELIVERY_TEXTS.chooseSender);
    await refused(
      { images: Array.from({ length: 11 }, (_, i) => `F0000${i}`) },
      DELIVERY_TEXTS.tooManyImages,
    );
  });

  it("another workspace's channel is refused; nothing is sent", async () => {
    const theirs = (env.emu.truth(otherTeam).channels() as any[]).find((c) => !c.is_im).id;
    const res = await call('POST', '/poll/createpoll', body({ channel_ids: [theirs] }));
    expect(res.statusCode).toBe(400);
    const n = ((await db().execute(sql`select count(*)::int as n from polls`)) as any).rows[0].n;
    expect(n).toBe(0);
  });

  it("another admin's workspace is 403, a bad id 400, an unknown poll 404", async () => {
    expect((await call('POST', '/poll/createpoll', body(), stranger.token)).statusCode).toBe(403);
    expect((await call('GET', `/poll/getpolls/${teamId}`, undefined, stranger.token)).statusCode).toBe(403);
    expect((await call('GET', `/poll/getpollinfo/abc/${teamId}`)).statusCode).toBe(400);
    expect((await call('GET', `/poll/getpollinfo/99999/${teamId}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/poll/deletepoll/99999/${teamId}`)).statusCode).toBe(404);
  });

  it('a question with an emoji where the receipt description is cut is created; the cut keeps the emoji whole or leaves it out', async () => {
    const question = `${'a'.repeat(56)}🎉 ${'b'.repeat(20)}?`;
    const res = await call('POST', '/poll/createpoll', body({ poll_question: question }));
    expect(res.statusCode, res.body).toBe(201);
    const receipts = (await call('GET', `/receipts/getallreceipts/${teamId}`)).json().data as any[];
    const receipt = receipts.find((r) => r.id === res.json().data.receipt_id);
    expect(receipt.description).toBe(`Poll: ${'a'.repeat(56)}...`);
    const family = `${'c'.repeat(50)}👨‍👩‍👧${'d'.repeat(20)}`;
    const again = await call('POST', '/poll/createpoll', body({ poll_question: family }));
    expect(again.statusCode, again.body).toBe(201);
    const all = (await call('GET', `/receipts/getallreceipts/${teamId}`)).json().data as any[];
    expect(all.find((r) => r.id === again.json().data.receipt_id).description).toBe(
      `Poll: ${'c'.repeat(50)}...`,
    );
    await call('DELETE', `/poll/deletepoll/${res.json().data.id}/${teamId}`);
    await call('DELETE', `/poll/deletepoll/${again.json().data.id}/${teamId}`);
  });

  it('half of an emoji (a lone surrogate) in an option is a 400 naming the field', async () => {
    for (const [over, field] of [
      [{ value: 'Yes \ud83c' }, 'options[0].value'],
      [{ emoji: '\udc4d' }, 'options[0].emoji'],
    ] as const) {
      const res = await call(
        'POST',
        '/poll/createpoll',
        body({ options: [{ ...OPTIONS[0], ...over }, OPTIONS[1]] }),
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(field);
    }
  });
});

describe('a poll in Slack', () => {
  let pollId: number;
  let receiptId: number;
  let ts: string;

  it('is posted in its channel through the delivery engine, with a receipt', async () => {
    const res = await call('POST', '/poll/createpoll', body());
    expect(res.statusCode, res.body).toBe(201);
    const poll = res.json().data;
    expect(res.json().message).toBe(POLL_TEXTS.created);
    expect(poll).toMatchObject({ state: 'active', status: true, total_votes: 0, created_by: 'Bot' });
    expect(Date.parse(poll.expiry_ts) - Date.parse(poll.post_at)).toBe(24 * 3_600_000);
    pollId = poll.id;
    receiptId = poll.receipt_id;
    await drainDeliveries();
    const m = slackMessage(receiptId);
    expect(m.text).toContain('Which day suits the *meetup*?');
    expect(m.text).toContain(':thumbsup: *Tuesday*');
    expect(m.text).toContain('0 votes so far');
    ts = m.ts;
    const receipts = (await call('GET', `/receipts/getallreceipts/${teamId}`)).json().data as any[];
    expect(receipts.find((r) => r.id === receiptId)).toMatchObject({
      action_type: 'Poll',
      total_recipient_count: 1,
      successful_recipient_count: 1,
    });
  });

  it('counts one vote per member from the option reactions; the message shows the counts live', async () => {
    const team = env.emu.team(teamId);
    const [a, b, c] = members as [string, string, string];
    team.react(channel, ts, 'thumbsup', a, true); // a: Tuesday
    team.react(channel, ts, 'tada', b, true); // b: Wednesday
    team.react(channel, ts, 'thumbsup', c, true); // c: Tuesday
    team.react(channel, ts, 'rocket', a, true); // a changes to Thursday
    team.react(channel, ts, 'tada', b, false); // b removes their vote
    team.react(channel, ts, 'thumbsup', botMember, true); // a bot: ignored
    team.react(channel, ts, 'heart', c, true); // not an option: ignored
    team.react(channel, ts, 'thumbsup', a, false); // a removes an old reaction: the vote stays Thursday
    await settleEvents(env);

    const info = (await call('GET', `/poll/getpollinfo/${pollId}/${teamId}`)).json().data;
    expect(info.poll_options.map((o: any) => o.count)).toEqual([1, 0, 1]);
    expect(info.total_votes).toBe(2);
    const voters = (await call('GET', `/poll/memberpollinfo/${pollId}/${teamId}`)).json().data as any[];
    expect(voters.map((v) => [v.user_id, v.value]).sort()).toEqual(
      [
        [a, 'Thursday'],
        [c, 'Tuesday'],
      ].sort(),
    );
    const rows = (await call('GET', `/poll/exportpollinfo/${pollId}/${teamId}`)).json().data as any[];
    const emails = new Map(
      ([...env.emu.truth(teamId).members()] as any[]).map((m) => [m.id, m.profile?.email ?? '']),
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { email: emails.get(a), value: 'Thursday', name: expect.any(String) },
        { email: emails.get(c), value: 'Tuesday', name: expect.any(String) },
      ]),
    );
    expect(rows).toHaveLength(2);

    // The refresh job (the process's workers) updates the message: one coalesced update for the burst.
    const text = await until('the live counts in Slack', () => {
      const t = slackMessage(receiptId).text as string;
      return t.includes('2 votes so far') ? t : undefined;
    });
    expect(text).toMatch(/:thumbsup: \*Tuesday\*.* 1 vote \(50%\)/);
    expect(text).toMatch(/:tada: \*Wednesday\*.* 0 votes \(0%\)/);
    expect(text).toMatch(/:rocket: \*Thursday\*.* 1 vote \(50%\)/);
    await new Promise((r) => setTimeout(r, 4000));
    expect(editsOf(ts).length).toBeLessThanOrEqual(3);
  });

  it('a refused chat.update (429) fails the refresh, which succeeds when tried again', async () => {
    const service = serviceAt(() => Date.now());
    env.emu.queueFault({ kind: 'ratelimited', method: 'chat.update', retryAfter: 1 });
    await expect(service.refresh(pollId)).rejects.toMatchObject({ statusCode: 429 });
    await new Promise((r) => setTimeout(r, 1100));
    await expect(service.refresh(pollId)).resolves.toBe(true);
  });

  it('closes exactly once at its end, even with two workers racing; later votes do not count', async () => {
    const end = Date.parse(
      (await call('GET', `/poll/getpollinfo/${pollId}/${teamId}`)).json().data.expiry_ts,
    );
    const early = serviceAt(() => end - 1000);
    expect(await early.closeDue(pollId)).toBe(0);
    const before = editsOf(ts).length;
    // Two worker processes: two services on the one database, and the close job's own handler, at once.
    const w1 = serviceAt(() => end + 500);
    const w2 = serviceAt(() => end + 700);
    const [n1, n2, n3] = await Promise.all([w1.closeDue(pollId), w2.closeDue(), w1.closeDue()]);
    expect(n1 + n2 + n3).toBe(1);
    await pollsCloseJob.handle(
      { pollId },
      { ctx: env.t.ctx, jobId: 'x', logger: createLogger('silent'), stopping: new AbortController().signal },
    );
    const finals = editsOf(ts)
      .slice(before)
      .filter((t) => t.includes('This poll is closed'));
    expect(finals).toHaveLength(1);
    expect(slackMessage(receiptId).text).toContain('Final results: 2 votes');
    const row = (
      (await db().execute(
        sql`select closed_at is not null as closed, final_at is not null as final from polls where id = ${pollId}`,
      )) as any
    ).rows[0];
    expect(row).toEqual({ closed: true, final: true });

    env.emu.team(teamId).react(channel, ts, 'tada', members[3]!, true);
    await settleEvents(env);
    const info = (await call('GET', `/poll/getpollinfo/${pollId}/${teamId}`)).json().data;
    expect(info.total_votes).toBe(2);
    expect(info).toMatchObject({ state: 'expired', status: false });
  });

  it('a poll listed in the Poll Table; search finds it', async () => {
    const list = (await call('GET', `/poll/getpolls/${teamId}?search=meetup`)).json().data as any[];
    expect(list.map((p) => p.id)).toContain(pollId);
    expect((await call('GET', `/poll/getpolls/${teamId}?search=nothing-like-it`)).json().data).toEqual([]);
  });

  it('delete removes the poll and its Slack message (chat.delete)', async () => {
    const res = await call('DELETE', `/poll/deletepoll/${pollId}/${teamId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(POLL_TEXTS.deleted);
    await until('the message deleted', () => !slackMessage(receiptId) || slackMessage(receiptId).deleted);
    const list = (await call('GET', `/poll/getpolls/${teamId}`)).json().data as any[];
    expect(list.map((p) => p.id)).not.toContain(pollId);
    await until('the poll row gone', async () => {
      const rows = ((await db().execute(sql`select id from polls where id = ${pollId}`)) as any).rows;
      return rows.length === 0;
    });
  });
});

describe('a scheduled poll', () => {
  it('waits for its time, then is posted once whichever workers tick', async () => {
    const at = Date.now() + 20 * 60_000;
    const res = await call(
      'POST',
      '/poll/createpoll',
      body({ type: 'scheduled', post_at: new Date(at).toISOString(), sender: 'bot' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(POLL_TEXTS.scheduled);
    const poll = res.json().data;
    expect(poll).toMatchObject({ state: 'scheduled', receipt_id: null });
    expect(poll.expiry_ts).toBe(new Date(at + 24 * 3_600_000).toISOString());
    expect(await serviceAt(() => at - 1000).postDue()).toBe(0);
    const [a, b] = await Promise.all([
      serviceAt(() => at + 1000).postDue(),
      serviceAt(() => at + 2000).postDue(),
    ]);
    expect(a + b).toBe(1);
    const info = (await call('GET', `/poll/getpollinfo/${poll.id}/${teamId}`)).json().data;
    expect(info.receipt_id).toEqual(expect.any(Number));
    await drainDeliveries();
    expect(slackMessage(info.receipt_id)).toBeTruthy();
  });
});

describe('votes from events out of order', () => {
  it('each reaction counts by its event time, whatever order the events arrive in', async () => {
    const res = await call('POST', '/poll/createpoll', body({ poll_question: 'Order test?' }));
    expect(res.statusCode, res.body).toBe(201);
    const poll = res.json().data;
    await drainDeliveries();
    const ts = slackMessage(poll.receipt_id).ts as string;
    const [d, e] = [members[5]!, members[6]!];
    const event = (user: string, reaction: string, eventTs: string) => ({
      user,
      reaction,
      item: { type: 'message', channel, ts },
      event_ts: eventTs,
    });
    const t = Math.floor(Date.now() / 1000);
    // Slack sent: d adds :tada: then removes it; e picks :thumbsup: then :rocket:. They arrive backwards.
    const arrived: [ReturnType<typeof event>, boolean][] = [
      [event(d, 'tada', `${t}.000002`), false],
      [event(d, 'tada', `${t}.000001`), true],
      [event(e, 'rocket', `${t}.000004`), true],
      [event(e, 'thumbsup', `${t}.000003`), true],
    ];
    await db().transaction(async (tx) => {
      for (const [ev, added] of arrived) await env.t.ctx.services.polls.applyReaction(tx, teamId, ev, added);
    });
    const voters = (await call('GET', `/poll/memberpollinfo/${poll.id}/${teamId}`)).json().data as any[];
    expect(voters.map((v) => [v.user_id, v.value])).toEqual([[e, 'Thursday']]);
  });
});

describe('who may vote (a signed event is still checked)', () => {
  it("only the poll's workspace's people vote: not another workspace's member, an unknown id or a bot; absurd times are refused", async () => {
    const res = await call('POST', '/poll/createpoll', body({ poll_question: 'Strangers test?' }));
    expect(res.statusCode, res.body).toBe(201);
    const poll = res.json().data;
    await drainDeliveries();
    const ts = slackMessage(poll.receipt_id).ts as string;
    const [ws] = (
      (await db().execute(sql`select bot_user_id from workspaces where team_id = ${teamId}`)) as any
    ).rows;
    const foreign = ([...env.emu.truth(otherTeam).members()] as any[]).find(
      (m) => !m.is_bot && !m.deleted,
    ).id;
    const now = Math.floor(Date.now() / 1000);
    const votes: [string, string, string][] = [
      [foreign, 'thumbsup', `${now}.000001`],
      ['UNOBODY0002', 'thumbsup', `${now}.000002`],
      [ws.bot_user_id, 'thumbsup', `${now}.000003`],
      [members[10]!, 'thumbsup', '1000000000.000100'], // September 2001
      [members[11]!, 'thumbsup', `${now + 10 * 365 * 86_400}.000000`], // ten years ahead
      [members[12]!, 'tada', `${now}.000004`],
    ];
    for (const [i, [user, reaction, eventTs]] of votes.entries())
      await deliverEvent(
        env,
        teamId,
        { type: 'reaction_added', user, reaction, item: { type: 'message', channel, ts }, event_ts: eventTs },
        `EvSTRANGER${poll.id}x${i}`,
      );
    await settleEvents(env);
    const voters = (await call('GET', `/poll/memberpollinfo/${poll.id}/${teamId}`)).json().data as any[];
    expect(voters.map((v) => [v.user_id, v.value])).toEqual([[members[12], 'Wednesday']]);
    const info = (await call('GET', `/poll/getpollinfo/${poll.id}/${teamId}`)).json().data;
    expect(info.total_votes).toBe(1);
  });
});
