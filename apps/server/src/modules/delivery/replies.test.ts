import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { typedRows } from '../../db/sql.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  deliverEvent,
  drainDeliveries,
  installThroughOAuth,
  ownerOf,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let people: string[];
let otherPerson: string;
let botUser: string;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 31, members: 16, channels: 3, days: 2 },
        { seed: 32, members: 6, channels: 2, days: 2 },
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
  await waitForBackfill(env, stranger.token, otherTeam);
  await settleEvents(env);
  const owner = ownerOf(env, teamId);
  people = [...env.emu.truth(teamId).members()]
    .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && m.id !== owner)
    .map((m: any) => m.id);
  otherPerson = [...env.emu.truth(otherTeam).members()].find(
    (m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT',
  )!.id;
  botUser = env.emu.truth(teamId).install()!.botUserId;
}, 120_000);
afterAll(() => env.close());

const rows = <T>(q: ReturnType<typeof sql>) => typedRows<T>(env.t.ctx.database.db, q);
const get = (url: string, token = user.token) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(token) });

async function bulkDm(users: string[], text: string): Promise<number> {
  const res = await env.t.app.inject({
    method: 'POST',
    url: '/api/v0/quickaction/dmtomultipleusers',
    headers: bearer(user.token),
    payload: { team_id: teamId, sender: 'bot', users, text },
  });
  expect(res.statusCode).toBe(202);
  const id = res.json().data.receipt_id as number;
  await drainDeliveries(env, teamId);
  return id;
}

/** Where the receipt's DM to `member` went (the D… conversation) and its ts. */
async function sentTo(receiptId: number, member: string) {
  const [row] = await rows<{ channel_id: string; ts: string }>(
    sql`select channel_id, ts from delivery_recipients where receipt_id = ${receiptId} and target_id = ${member}`,
  );
  expect(row?.ts, `the DM to ${member} was sent`).toBeTruthy();
  return row!;
}

const repliesOf = async (receiptId: number) => {
  const res = await get(`/receipts/getreplies/${teamId}?receipt_id=${receiptId}`);
  expect(res.statusCode).toBe(200);
  return res.json().data as any[];
};
const receiptRow = async (id: number) =>
  ((await get(`/receipts/getallreceipts/${teamId}`)).json().data as any[]).find((r) => r.id === id);

describe('replies to DMs (message.im)', () => {
  it('a member’s reply to a bulk DM is linked to its receipt; a reply in the thread of an older send goes to that one', async () => {
    const [a, b, c] = people as [string, string, string];
    const first = await bulkDm([a, b, c], 'Welcome to the community! What brings you here?');
    const team = env.emu.team(teamId);
    const dmA = await sentTo(first, a);
    const dmB = await sentTo(first, b);
    team.postMessage(dmA.channel_id, { user: a, text: 'Hi! I came for the *meetups*' });
    team.postMessage(dmB.channel_id, { user: b, text: 'Mostly the jobs channel', thread_ts: dmB.ts });
    await settleEvents(env);

    const replies = await repliesOf(first);
    expect(replies.map((r) => [r.member_id, r.text, r.in_thread]).sort()).toEqual(
      [
        [a, 'Hi! I came for the *meetups*', false],
        [b, 'Mostly the jobs channel', true],
      ].sort(),
    );
    const names = new Map(
      [...env.emu.truth(teamId).members()].map((m: any) => [m.id, m.real_name || m.profile?.display_name]),
    );
    for (const r of replies) {
      expect(r.member_name).toBe(names.get(r.member_id));
      expect(r.receipt_id).toBe(first);
      expect(r.action_type).toBe('Bulk DM');
    }
    expect((await receiptRow(first)).reply_count).toBe(2);

    // A second send to a; then a plain reply answers the second, a reply in the first DM's thread the first.
    const second = await bulkDm([a], 'Our next meetup is on Thursday');
    team.postMessage(dmA.channel_id, { user: a, text: 'See you Thursday' });
    team.postMessage(dmA.channel_id, { user: a, text: 'And about my first answer…', thread_ts: dmA.ts });
    await settleEvents(env);
    expect((await repliesOf(second)).map((r) => r.text)).toEqual(['See you Thursday']);
    expect((await repliesOf(first)).map((r) => r.text).sort()).toEqual(
      ['And about my first answer…', 'Hi! I came for the *meetups*', 'Mostly the jobs channel'].sort(),
    );
    expect((await receiptRow(first)).reply_count).toBe(3);
    expect((await receiptRow(second)).reply_count).toBe(1);

    // The member's own list (member detail): newest first, each with the send it answers.
    const mine = await get(`/receipts/getreplies/${teamId}?member_id=${a}`);
    expect(mine.statusCode).toBe(200);
    const list = mine.json().data as any[];
    expect(list.map((r) => r.text)).toEqual([
      'And about my first answer…',
      'See you Thursday',
      'Hi! I came for the *meetups*',
    ]);
    expect(list.map((r) => r.receipt_id)).toEqual([first, second, first]);
  });

  it('edits and deletions follow the reply; Slack’s retries store nothing twice; DM text is not channel activity', async () => {
    const [, , , d] = people as [string, string, string, string];
    const id = await bulkDm([d], 'How was the workshop?');
    const dm = await sentTo(id, d);
    const activityBefore = await rows<any>(
      sql`select coalesce(sum(messages + replies), 0)::int as n from activity_daily where team_id = ${teamId}`,
    );
    const team = env.emu.team(teamId);
    const kept = team.postMessage(dm.channel_id, { user: d, text: 'Great, tahnks' });
    const gone = team.postMessage(dm.channel_id, { user: d, text: 'oops, wrong chat' });
    await settleEvents(env);
    team.updateMessage(dm.channel_id, kept.ts, { text: 'Great, thanks!' }, d);
    team.deleteMessage(dm.channel_id, gone.ts);
    await settleEvents(env);
    // Slack sends an event again when it thinks the answer was lost: the same event_id, stored once.
    for (const delivery of env.emu
      .deliveries()
      .filter((x) => x.teamId === teamId)
      .slice(-6))
      await deliverEvent(env, teamId, delivery.envelope.event as object, delivery.eventId);
    await settleEvents(env);

    const replies = await repliesOf(id);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ text: 'Great, thanks!', edited: true, member_id: d });
    expect((await receiptRow(id)).reply_count).toBe(1);
    const stored = await rows<{ n: number }>(
      sql`select count(*)::int as n from delivery_replies where team_id = ${teamId} and channel_id = ${dm.channel_id}`,
    );
    expect(stored[0]!.n).toBe(2); // the deleted one is kept as deleted, not listed
    const activityAfter = await rows<any>(
      sql`select coalesce(sum(messages + replies), 0)::int as n from activity_daily where team_id = ${teamId}`,
    );
    expect(activityAfter).toEqual(activityBefore);
  });

  it('a member who writes first is kept, answering no send; the bot, Slackbot and strangers are not replies', async () => {
    const [, , , , e, f] = people as string[];
    const team = env.emu.team(teamId);
    // e never got a DM from Flywheel: open the conversation the way Slack's client does, then write.
    const id = await bulkDm([f!], 'Hello f');
    const dmF = await sentTo(id, f!);
    const imE = team.channels.openIm(botUser, e!).ch.id;
    team.postMessage(dmF.channel_id, { user: botUser, text: 'the bot talking', bot_id: 'B1' });
    team.postMessage(dmF.channel_id, { user: 'USLACKBOT', text: 'Slackbot says hi' });
    team.postMessage(dmF.channel_id, { user: otherPerson, text: 'a member of another workspace' });
    team.postMessage(dmF.channel_id, { user: f!, subtype: 'channel_join', text: 'joined' });
    team.postMessage(imE, { user: e!, text: 'Is there a code of conduct?' });
    await settleEvents(env);

    expect(await repliesOf(id)).toEqual([]);
    const own = (await get(`/receipts/getreplies/${teamId}?member_id=${e}`)).json().data as any[];
    expect(own.map((r) => [r.text, r.receipt_id])).toEqual([['Is there a code of conduct?', null]]);
  });

  it('another admin’s workspace, someone else’s receipt and bad input are refused', async () => {
    const id = await bulkDm([people[0]!], 'ping');
    expect((await get(`/receipts/getreplies/${teamId}?receipt_id=${id}`, stranger.token)).statusCode).toBe(
      403,
    );
    const foreign = await get(`/receipts/getreplies/${otherTeam}?receipt_id=${id}`, stranger.token);
    expect(foreign.statusCode).toBe(404);
    const none = await get(`/receipts/getreplies/${teamId}`);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/receipt_id/);
    const both = await get(`/receipts/getreplies/${teamId}?receipt_id=${id}&member_id=${people[0]}`);
    expect(both.statusCode).toBe(400);
    const bad = await get(`/receipts/getreplies/${teamId}?member_id=robert');drop`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/member_id|Slack user id/);
    expect((await get(`/receipts/getreplies/${teamId}?receipt_id=-3`)).statusCode).toBe(400);
    expect((await get(`/receipts/getreplies/${teamId}?receipt_id=99999999999`)).statusCode).toBe(404);
  });
});
