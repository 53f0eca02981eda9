import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { typedRows } from '../../db/sql.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  ownerOf,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from './engine.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let teamId: string;
let owner: string;
/** Public channels the owner (the admin who installed) is in, and not in. */
let inside: string[];
let outside: string[];

beforeAll(async () => {
  env = await slackTestEnv(
    { workspace: { seed: 21, members: 40, channels: 8, days: 2 } },
    { DELIVERY_RETRY_BASE_MS: '20' },
  );
  teamId = env.emu.teamIds[0]!;
  user = await signedInUser(env.t);
  owner = ownerOf(env, teamId);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  const channels = (env.emu.truth(teamId).channels() as any[]).filter(
    (c) => !c.is_private && !c.is_im && !c.is_archived,
  );
  inside = channels.filter((c) => c.members.includes(owner)).map((c) => c.id);
  outside = channels.filter((c) => !c.members.includes(owner)).map((c) => c.id);
  expect(inside.length).toBeGreaterThan(0);
  expect(outside.length).toBeGreaterThan(1);
}, 120_000);
afterAll(() => env.close());

const post = (url: string, payload: object) =>
  env.t.app.inject({ method: 'POST', url: `/api/v0${url}`, headers: bearer(user.token), payload });
const get = (url: string) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(user.token) });

const receiptCount = async () =>
  (
    await typedRows<{ n: number }>(
      env.t.ctx.database.db,
      sql`select count(*)::int as n from delivery_receipts where team_id = ${teamId}`,
    )
  )[0]!.n;

const nameOf = (channel: string) =>
  (env.emu.truth(teamId).channels() as any[]).find((c) => c.id === channel).name as string;

/** Messages of ours (our delivery metadata) in a conversation of the emulator. */
const ours = (channel: string) =>
  [...(env.emu.truth(teamId).messages({ channel }) as Iterable<any>)].filter(
    (m) => m.metadata?.event_type === DELIVERY_EVENT_TYPE,
  );

async function waitProcessed(id: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    await env.t.ctx.services.deliveryEngine.run(teamId, 1000);
    const res = await get(`/receipts/getreceipt/${teamId}/${id}`);
    expect(res.statusCode).toBe(200);
    const r = res.json().data;
    if (r.successful_recipient_count + r.failed_recipient_count >= r.total_recipient_count) return r;
    if (Date.now() > deadline) throw new Error(`receipt ${id} not done: ${JSON.stringify(r)}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Sets what Flywheel stores of the owner's membership of `channel` (as a missed event would leave it). */
async function storeMembership(channel: string, member: boolean) {
  const db = env.t.ctx.database.db;
  if (member)
    await db.execute(sql`insert into slack_channel_members (team_id, channel_id, member_id)
      values (${teamId}, ${channel}, ${owner}) on conflict do nothing`);
  else
    await db.execute(sql`delete from slack_channel_members
      where team_id = ${teamId} and channel_id = ${channel} and member_id = ${owner}`);
}

describe('a send as an admin into a channel the admin is not in', () => {
  it('a reply is refused with a 400 naming channel_id and the channel, before anything is queued', async () => {
    const ch = outside[0]!;
    const parent = env.emu.team(teamId).postMessage(ch, { user: 'U0OTHER', text: 'hello?' } as any);
    await settleEvents(env);
    const before = await receiptCount();
    const res = await post('/quickaction/replytothread', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      text: 'an answer',
      ts: parent.ts,
      channel_id: ch,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ADMIN_NOT_IN_CHANNEL', channels: 1 });
    expect(res.json().message).toMatch(
      new RegExp(`^channel_id: .+ is not a member of #${nameOf(ch)} in Slack`),
    );
    expect(res.json().message).toMatch(/Send it as the Bot instead/);
    expect(await receiptCount()).toBe(before);

    // As the bot it goes, and Slack holds the reply.
    const asBot = await post('/quickaction/replytothread', {
      team_id: teamId,
      sender: 'bot',
      text: 'an answer',
      ts: parent.ts,
      channel_id: ch,
    });
    expect(asBot.statusCode).toBe(202);
    const done = await waitProcessed(asBot.json().data.receipt_id);
    expect(done).toMatchObject({ successful_recipient_count: 1, failures: [] });
    expect(ours(ch).filter((m) => m.thread_ts === parent.ts && m.text === 'an answer')).toHaveLength(1);
  });

  it('Send Message names channel_ids and only the channels the admin is not in', async () => {
    const before = await receiptCount();
    const res = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      message: 'news',
      channel_ids: [inside[0], outside[0], outside[1]],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ADMIN_NOT_IN_CHANNEL', channels: 2 });
    const msg = res.json().message as string;
    expect(msg).toMatch(/^channel_ids: /);
    expect(msg).toContain(`#${nameOf(outside[0]!)} and #${nameOf(outside[1]!)}`);
    expect(msg).not.toContain(`#${nameOf(inside[0]!)}`);
    expect(await receiptCount()).toBe(before);
    // DMs as the admin are not posts in a channel: they are not concerned.
    const dm = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      message: 'news',
      dms: { channels: [outside[0]] },
    });
    expect(dm.statusCode).toBe(202);
  });

  it("Slack's answer decides, not a stored membership gone stale", async () => {
    // Stored: a member of a channel Slack says they are not in (a member_left_channel Flywheel never got).
    const ch = outside[1]!;
    await storeMembership(ch, true);
    const refused = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      message: 'refused',
      channel_ids: [ch],
    });
    expect(refused.statusCode).toBe(400);

    // Joined in Slack a moment ago, not stored yet: the send goes, and Slack holds it.
    env.emu.team(teamId).joinChannel(outside[0]!, owner);
    await storeMembership(outside[0]!, false);
    const sent = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      message: 'joined just now',
      channel_ids: [outside[0]],
    });
    expect(sent.statusCode).toBe(202);
    const r = await waitProcessed(sent.json().data.receipt_id);
    expect(r.successful_recipient_count).toBe(1);
    expect(ours(outside[0]!).filter((m) => m.text === 'joined just now' && m.user === owner)).toHaveLength(1);
    env.emu.team(teamId).leaveChannel(outside[0]!, owner);
    await storeMembership(ch, false);
  });

  it('when Slack does not answer, the stored channel members answer', async () => {
    const ch = outside[1]!;
    await storeMembership(ch, true);
    env.emu.queueFault({ kind: '5xx', method: 'users.conversations' });
    const passed = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      message: 'through the stored answer',
      channel_ids: [ch],
    });
    expect(passed.statusCode).toBe(202);
    // Slack refuses it at delivery, and the receipt says why.
    const r = await waitProcessed(passed.json().data.receipt_id);
    expect(r).toMatchObject({ failed_recipient_count: 1, failures: [{ error: 'not_in_channel', count: 1 }] });
    await storeMembership(ch, false);

    env.emu.queueFault({ kind: '5xx', method: 'users.conversations' });
    const refused = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      message: 'x',
      channel_ids: [ch],
    });
    expect(refused.statusCode).toBe(400);
  });

  it('GET /delivery/adminchannels answers the channels the admin is not in, with their names', async () => {
    const ids = [inside[0], outside[0], outside[1]].join(',');
    const res = await get(`/delivery/adminchannels/${teamId}?admin_user=${owner}&channel_ids=${ids}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.channels).toEqual(
      [outside[0]!, outside[1]!].map((id) => ({ channel_id: id, name: nameOf(id) })),
    );
    expect(res.json().data.admin).toBeTruthy();
    const none = await get(`/delivery/adminchannels/${teamId}?admin_user=${owner}&channel_ids=${inside[0]}`);
    expect(none.json().data.channels).toEqual([]);

    const notAdmin = await get(`/delivery/adminchannels/${teamId}?admin_user=U0NOTADMIN&channel_ids=${ids}`);
    expect(notAdmin.statusCode).toBe(400);
    expect(notAdmin.json().message).toMatch(/^admin_user /);
    const badIds = await get(`/delivery/adminchannels/${teamId}?admin_user=${owner}&channel_ids=nope`);
    expect(badIds.statusCode).toBe(400);
    expect(badIds.json().message).toMatch(/channel_ids/);
    const unknown = await get(`/delivery/adminchannels/${teamId}?admin_user=${owner}&channel_ids=C0NOTHERE`);
    expect(unknown.statusCode).toBe(400);
  });

  it('a send an automation makes is not refused here (the receipt records what Slack answers)', async () => {
    const r = await env.t.ctx.services.delivery.send({
      teamId,
      userId: null,
      actionType: 'Scheduled Message',
      sender: 'admin',
      adminUser: owner,
      text: 'scheduled',
      images: [],
      audience: {
        channel_ids: [outside[1]!],
        dms: { members: [], tags: [], channels: [] },
        sendtoworkspace: false,
      },
      origin: 'automation',
    });
    const done = await waitProcessed(r.receipt_id);
    expect(done.failures).toEqual([{ error: 'not_in_channel', count: 1 }]);
  });
});

describe('Send a test to me', () => {
  /** The DM (IM) of `a` with `b` in the emulator (a === b: the self-DM). */
  const imOf = (a: string, b: string) =>
    (env.emu.truth(teamId).channels() as any[]).find(
      (c) => c.is_im && [...c.members].sort().join() === [...new Set([a, b])].sort().join(),
    )?.id as string | undefined;

  it("as the bot: a DM from the bot to the signed-in admin's own Slack user, through the delivery", async () => {
    const res = await post('/quickaction/sendtest', {
      team_id: teamId,
      sender: 'bot',
      text: 'Hello :wave: <@' + owner + '>',
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toMatch(/test/i);
    const r = await waitProcessed(res.json().data.receipt_id);
    expect(r).toMatchObject({
      total_recipient_count: 1,
      successful_recipient_count: 1,
      action_type: 'Direct Message',
    });
    expect(r.description).toMatch(/^Test to you: Hello :wave:/);
    const bot = env.emu.truth(teamId).install()!.botUserId;
    const im = imOf(bot, owner);
    expect(im).toBeDefined();
    expect(ours(im!).filter((m) => m.text.startsWith('Hello :wave:'))).toHaveLength(1);
  });

  it('as the admin: in their DM with themselves; nobody else gets it', async () => {
    const before = [...(env.emu.truth(teamId).messages() as Iterable<any>)].length;
    const res = await post('/quickaction/sendtest', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      text: 'Note to self',
    });
    expect(res.statusCode).toBe(202);
    await waitProcessed(res.json().data.receipt_id);
    const self = imOf(owner, owner);
    expect(self).toBeDefined();
    expect(ours(self!).map((m) => [m.user, m.text])).toEqual([[owner, 'Note to self']]);
    expect([...(env.emu.truth(teamId).messages() as Iterable<any>)].length).toBe(before + 1);
  });

  it('a Flywheel admin without a Slack user in the workspace gets a 400 that says what to do', async () => {
    const invited = await signedInUser(env.t);
    await env.t.ctx.database.db.execute(
      sql`insert into workspace_admins (team_id, user_id) values (${teamId}, ${invited.userid})`,
    );
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/quickaction/sendtest',
      headers: bearer(invited.token),
      payload: { team_id: teamId, sender: 'bot', text: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Add as Admin/);
    const empty = await post('/quickaction/sendtest', { team_id: teamId, sender: 'bot', text: '  ' });
    expect(empty.statusCode).toBe(400);
  });
});

describe('GET /receipts/getreceipt', () => {
  it("is one receipt of this workspace; another's or none is a 404", async () => {
    const res = await get(`/receipts/getreceipt/${teamId}/999999`);
    expect(res.statusCode).toBe(404);
    const bad = await get(`/receipts/getreceipt/${teamId}/x`);
    expect(bad.statusCode).toBe(400);
  });
});
