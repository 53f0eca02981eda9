import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@flywheel/slack-emulator';
import { sql } from 'drizzle-orm';
import { firstRow } from '../../db/sql.ts';
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
import { deliveryRepo } from './repo.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let owner: string;
let members: string[];
let publicChannels: string[];
let otherChannel: string;

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 11, members: 40, channels: 4, days: 2 },
        { seed: 12, members: 10, channels: 2, days: 2 },
      ],
    },
    { DELIVERY_RETRY_BASE_MS: '20', DELIVERY_MAX_ATTEMPTS: '6' },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  owner = ownerOf(env, teamId);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  await waitForBackfill(env, stranger.token, otherTeam);
  members = [...env.emu.truth(teamId).members()]
    .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && m.id !== owner)
    .map((m: any) => m.id);
  publicChannels = (env.emu.truth(teamId).channels() as any[])
    .filter((c) => !c.is_private && !c.is_im && !c.is_archived)
    .map((c) => c.id);
  otherChannel = (env.emu.truth(otherTeam).channels() as any[]).find((c) => !c.is_private && !c.is_im).id;
}, 120_000);
afterAll(() => env.close());

const post = (url: string, payload: object, token = user.token) =>
  env.t.app.inject({ method: 'POST', url: `/api/v0${url}`, headers: bearer(token), payload });

async function receiptOf(id: number, token = user.token, team = teamId) {
  const res = await env.t.app.inject({
    method: 'GET',
    url: `/api/v0/receipts/getallreceipts/${team}`,
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  return (res.json().data as any[]).find((r) => r.id === id);
}

async function waitDone(id: number, timeoutMs = 60_000, step?: () => Promise<unknown>) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await step?.();
    const r = await receiptOf(id);
    if (r.successful_recipient_count + r.failed_recipient_count >= r.total_recipient_count) return r;
    if (Date.now() > deadline) throw new Error(`receipt ${id} not done: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/**
 * Runs the engine on a workspace until a receipt is done. A slice may end with nothing done by it: another
 * worker (the minute's `delivery.recover` wakes one for every workspace with due rows) may hold the row, or an
 * earlier test's 429s may have pushed the workspace's pace back. Either way the receipt settles; who sent it
 * does not matter to what the tests check (the messages Slack holds).
 */
const runUntilDone = (id: number) =>
  waitDone(id, 60_000, () => env.t.ctx.services.deliveryEngine.run(teamId, 2000));

/** What the emulator holds of our deliveries: per recipient (member of a DM, or channel), the messages. */
function delivered(emu: Emulator, team: string, receiptId: number) {
  const ims = new Map<string, string[]>();
  for (const c of emu.truth(team).channels() as any[]) if (c.is_im) ims.set(c.id, c.members);
  const out = new Map<string, any[]>();
  for (const m of emu.truth(team).messages() as Iterable<any>) {
    if (m.metadata?.event_type !== DELIVERY_EVENT_TYPE || m.metadata.event_payload.receipt !== receiptId)
      continue;
    const pair = ims.get(m.channel);
    const target = pair ? (pair.find((u) => u !== m.user) ?? m.user) : m.channel;
    out.set(target, [...(out.get(target) ?? []), m]);
  }
  return out;
}

async function csv(id: number, kind: string) {
  const res = await env.t.app.inject({
    method: 'GET',
    url: `/api/v0/receipts/exportrecipients/${teamId}/${id}/${kind}`,
    headers: bearer(user.token),
  });
  expect(res.statusCode).toBe(200);
  expect(res.body.startsWith('\uFEFF')).toBe(true);
  return res.body.slice(1).trim().split('\r\n');
}

async function upload(bytes: Buffer, filename: string, type: string, team = teamId, token = user.token) {
  const form = new FormData();
  form.append('team_id', team);
  form.append('image', new Blob([new Uint8Array(bytes)], { type }), filename);
  const req = new Request('http://x/', { method: 'POST', body: form });
  return env.t.app.inject({
    method: 'POST',
    url: '/api/v0/quickaction/uploadimage',
    headers: { ...bearer(token), 'content-type': req.headers.get('content-type')! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
}

describe('sending through the delivery engine', () => {
  it('a message with an image to 3 members, a tag and a channel arrives once per recipient, as the bot', async () => {
    // A tag on two more members (one of them already chosen by id: counted once).
    const tag = await post('/tags/createtag', { team_id: teamId, name: 'launch' });
    expect(tag.statusCode).toBe(201);
    const tagId = tag.json().data.id;
    expect(
      (
        await post('/tags/addtagtousers', {
          team_id: teamId,
          tags: [{ id: tagId, name: 'launch' }],
          users: [{ id: members[2] }, { id: members[3] }, { id: members[4] }],
        })
      ).statusCode,
    ).toBe(200);
    const image = await upload(PNG, 'dot.png', 'image/png');
    expect(image.statusCode).toBe(201);
    const fileId = image.json().data.file_id;

    const res = await post('/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'bot',
      message: 'Hello *everyone*',
      images: [fileId],
      channel_ids: [publicChannels[0]],
      dms: { members: members.slice(0, 3), tags: [tagId] },
    });
    expect(res.statusCode).toBe(202);
    const { receipt_id, total } = res.json().data;
    expect(total).toBe(6); // 5 members + 1 channel
    const r = await waitDone(receipt_id);
    expect(r).toMatchObject({
      total_recipient_count: 6,
      successful_recipient_count: 6,
      failed_recipient_count: 0,
    });

    const got = delivered(env.emu, teamId, receipt_id);
    expect([...got.keys()].sort()).toEqual([...members.slice(0, 5), publicChannels[0]].sort());
    for (const msgs of got.values()) {
      expect(msgs).toHaveLength(1);
      expect(msgs[0].username).toBe('Flywheel');
      expect(msgs[0].blocks.some((b: any) => b.type === 'image' && b.slack_file?.id === fileId)).toBe(true);
    }
    const all = await csv(receipt_id, 'total');
    expect(all[0]).toBe('"RecipientName","RecipientType","RecipientEmail","Status","Error","RecipientId"');
    expect(all).toHaveLength(7);
    expect(all.filter((l) => l.includes('"Channel"'))).toHaveLength(1);
    expect(await csv(receipt_id, 'failed')).toHaveLength(1);
    // Each row keeps the recipient's Slack id beside the name (people read names; a sheet matches on ids).
    const cells = all.slice(1).map((l) => l.split('","').map((c) => c.replace(/^"|"$/g, '')));
    expect(cells.map((c) => c[5]).sort()).toEqual([...members.slice(0, 5), publicChannels[0]].sort());
    for (const c of cells) expect(c[0]).not.toBe(c[5]);

    // Through the shared cell writer: a name that would run as a formula is written as text, the id beside it.
    const db = env.t.ctx.database.db;
    const before = await firstRow<{ real_name: string }>(
      db,
      sql`select real_name from slack_members where team_id = ${teamId} and member_id = ${members[0]}`,
    );
    await db.execute(sql`update slack_members set real_name = '=HYPERLINK("http://x.test","hi")'
      where team_id = ${teamId} and member_id = ${members[0]}`);
    try {
      expect((await csv(receipt_id, 'total')).find((l) => l.includes(`"${members[0]}"`))).toMatch(
        new RegExp(`^"'=HYPERLINK\\(""http://x\\.test"",""hi""\\)","Member",.*,"${members[0]}"$`),
      );
    } finally {
      await db.execute(sql`update slack_members set real_name = ${before!.real_name}
        where team_id = ${teamId} and member_id = ${members[0]}`);
    }
  });

  it('as an admin, with their user token; an admin who has not authorized gets a clear 400', async () => {
    const res = await post('/member/directmessage', {
      team_id: teamId,
      sender: 'admin',
      admin_user: owner,
      id: members[5],
      text: 'From the owner',
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().data.receipt_id;
    await waitDone(id);
    const got = delivered(env.emu, teamId, id);
    expect(got.get(members[5]!)?.map((m) => m.user)).toEqual([owner]);

    const stranger = await post('/member/directmessage', {
      team_id: teamId,
      sender: 'admin',
      admin_user: members[6],
      id: members[5],
      text: 'x',
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toMatch(/not an admin/);
  });

  it('reply in a thread, pin and unpin, react: Slack holds the change', async () => {
    const ch = publicChannels[0]!;
    const parent = env.emu.team(teamId).postMessage(ch, { user: members[0], text: 'a question' } as any);
    await settleEvents(env);
    const reply = await post('/quickaction/replytothread', {
      team_id: teamId,
      sender: 'bot',
      text: 'an answer',
      ts: parent.ts,
      channel_id: ch,
    });
    expect(reply.statusCode).toBe(202);
    await waitDone(reply.json().data.receipt_id);
    const replies = [...(env.emu.truth(teamId).messages({ channel: ch }) as Iterable<any>)].filter(
      (m) => m.thread_ts === parent.ts && m.text === 'an answer',
    );
    expect(replies).toHaveLength(1);

    expect(
      (await post('/quickaction/pinpost', { team_id: teamId, channel_id: ch, ts: parent.ts })).json().message,
    ).toBe('Message pinned');
    expect(env.emu.team(teamId).messages.pins(ch).has(parent.ts)).toBe(true);
    expect(
      (await post('/quickaction/unpinpost', { team_id: teamId, channel_id: ch, ts: parent.ts })).statusCode,
    ).toBe(200);
    expect(env.emu.team(teamId).messages.pins(ch).has(parent.ts)).toBe(false);
    const react = await post('/quickaction/addreaction', {
      team_id: teamId,
      channel_id: ch,
      ts: parent.ts,
      name: ':tada:',
      sender: 'bot',
    });
    expect(react.statusCode).toBe(200);
    const after = [...(env.emu.truth(teamId).messages({ channel: ch }) as Iterable<any>)].find(
      (m) => m.ts === parent.ts,
    );
    expect(after.reactions?.map((x: any) => x.name)).toContain('tada');
  });

  it('bad input is a 400 that says why, another workspace a 403, and nothing is sent', async () => {
    const before = [...(env.emu.truth(teamId).messages() as Iterable<any>)].length;
    const base = { team_id: teamId, sender: 'bot', message: 'hi', dms: { members: [members[0]] } };
    const cases: [object, RegExp][] = [
      [{ ...base, message: '   ' }, /The message cannot be empty!/],
      [
        { ...base, images: Array.from({ length: 11 }, (_, i) => `F0000000${i}`) },
        /Only 10 files can be sent at a time!/,
      ],
      [{ ...base, images: ['F0NOTMINE'] }, /Unknown image/],
      [{ ...base, dms: { members: ['U0NOBODY'] } }, /No member of this workspace matches: U0NOBODY/],
      [{ ...base, dms: {}, channel_ids: [otherChannel] }, /No channel of this workspace matches/],
      [{ ...base, sender: undefined }, /Choose a Sender/],
      [{ ...base, dms: {} }, /Choose at least one member or channel or tag/],
      // A control character is refused by the input guard before the schema, naming the field.
      [{ ...base, message: 'bad \u0007 bell' }, /message must not contain control characters/],
    ];
    for (const [payload, message] of cases) {
      const res = await post('/quickaction/sendmessage', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const foreign = await post('/quickaction/sendmessage', { ...base, team_id: otherTeam });
    expect(foreign.statusCode).toBe(403);
    expect((await upload(PNG, 'x.png', 'image/png', otherTeam)).statusCode).toBe(403);
    const gif = await upload(Buffer.from('GIF89a\x01\x00\x01\x00'), 'a.gif', 'image/gif');
    expect(gif.statusCode).toBe(400);
    expect(gif.json().message).toBe('image: Only jpg/jpeg/png images are supported!');
    const big = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]);
    const huge = await upload(big, 'big.png', 'image/png');
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toBe('image: Image size should be less than 5MB!');
    expect([...(env.emu.truth(teamId).messages() as Iterable<any>)].length).toBe(before);
  });

  it('sendMany: each send of a batch is answered as send alone answers it, one receipt per key', async () => {
    const delivery = env.t.ctx.services.delivery;
    const run = `batch-${Date.now()}`;
    const gone = [...env.emu.truth(teamId).members()].find((m: any) => m.deleted && !m.is_bot) as any;
    const req = (key: string, over: object, dms: object = {}) => ({
      teamId,
      userId: user.userid,
      actionType: 'Scheduled Message' as const,
      sender: 'bot' as const,
      adminUser: null,
      text: `batch ${key}`,
      images: [],
      audience: {
        channel_ids: [] as string[],
        dms: { members: [] as string[], tags: [] as number[], channels: [] as string[], ...dms },
        sendtoworkspace: false,
      },
      idempotencyKey: `${run}:${key}`,
      deferWake: true,
      ...over,
    });
    const reqs = [
      req('a', {}, { members: [members[0]!] }),
      req('b', {}, { members: ['U0NOBODY'] }),
      req('c', {}, { members: [members[1]!, ` ${members[1]!} `] }),
      req('d', {
        audience: {
          channel_ids: [otherChannel],
          dms: { members: [], tags: [], channels: [] },
          sendtoworkspace: false,
        },
      }),
      req('a', {}, { members: [members[2]!] }), // the same key again: the first receipt
      req('e', {}, { tags: [987654] }), // a tag: checked by resolve
      req('f', { sender: 'admin', adminUser: 'U0NOTADMIN' }, { members: [members[3]!] }),
      req('g', {
        audience: {
          channel_ids: [publicChannels[0]!],
          dms: { members: [members[4]!], tags: [], channels: [] },
          sendtoworkspace: false,
        },
      }),
      ...(gone ? [req('h', {}, { members: [gone.id] })] : []),
    ];
    const results = await delivery.sendMany(reqs);
    expect(results).toHaveLength(reqs.length);
    // Errors: the same messages send alone throws, for the same requests under fresh keys.
    for (const [i, r] of results.entries()) {
      if (!('error' in r)) continue;
      const alone = await delivery.send({ ...reqs[i]!, idempotencyKey: `${run}:alone:${i}` }).then(
        () => new Error('sent'),
        (err: Error) => err,
      );
      expect(r.error.message, `send ${i}`).toBe(alone.message);
    }
    const ok = (i: number) => {
      const r = results[i]!;
      if ('error' in r) throw new Error(`send ${i} failed: ${r.error.message}`);
      return r;
    };
    expect(ok(0).total).toBe(1);
    expect(ok(2).total).toBe(1); // one member, named twice
    expect(ok(7).total).toBe(2);
    expect(ok(4)).toEqual({ ...ok(0), existing: true });
    expect((results[1] as { error: Error }).error.message).toBe(
      'No member of this workspace matches: U0NOBODY',
    );
    expect((results[3] as { error: Error }).error.message).toMatch(/No channel of this workspace matches/);
    expect((results[5] as { error: Error }).error.message).toMatch(/Unknown tag id/);
    expect((results[6] as { error: Error }).error.message).toMatch(/admin_user is not an admin/);
    if (gone) expect((results[8] as { error: Error }).error.message).toMatch(/Nobody to send to/);
    // Asked again, the batch answers the same receipts and writes nothing new.
    const again = await delivery.sendMany(reqs);
    for (const i of [0, 2, 7]) expect(again[i]).toEqual({ ...ok(i), existing: true });
    const rows = await env.t.ctx.database.db.execute(
      sql`select receipt_id::int as id, count(*)::int as n from delivery_recipients
        where receipt_id = any(${`{${[0, 2, 7].map((i) => ok(i).receipt_id).join(',')}}`}::int[]) group by receipt_id`,
    );
    expect(Object.fromEntries((rows as any).rows.map((r: any) => [r.id, r.n]))).toEqual({
      [ok(0).receipt_id]: 1,
      [ok(2).receipt_id]: 1,
      [ok(7).receipt_id]: 2,
    });
    await delivery.wake(teamId);
    expect((await waitDone(ok(7).receipt_id)).successful_recipient_count).toBe(2);
  });

  it('under 429s, 5xx and lost answers every recipient gets exactly one message; the counts equal Slack', async () => {
    const audience = members.slice(0, 30);
    env.emu.setFaults({
      ratelimitedRate: 0.1,
      http5xxRate: 0.05,
      lostAnswerRate: 0.1,
      methods: ['chat.postMessage'],
    });
    try {
      const res = await post('/quickaction/dmtomultipleusers', {
        team_id: teamId,
        sender: 'bot',
        users: audience,
        text: 'through the storm',
      });
      expect(res.statusCode).toBe(202);
      const id = res.json().data.receipt_id;
      const r = await waitDone(id, 90_000);
      const got = delivered(env.emu, teamId, id);
      expect([...got.keys()].sort()).toEqual([...audience].sort());
      for (const msgs of got.values()) expect(msgs).toHaveLength(1);
      expect(r.successful_recipient_count).toBe(got.size);
      expect(r.failed_recipient_count).toBe(0);
    } finally {
      env.emu.clearFaults();
    }
  }, 120_000);

  it('a worker cut off between Slack’s answer and the commit: the next attempt finds the message, sends nothing', async () => {
    const db = env.t.ctx.database.db;
    const repo = deliveryRepo(db);
    // A receipt (not announced to the workers) whose one recipient a worker claimed and posted, then died.
    const { id } = await repo.createReceipt(
      {
        teamId,
        actionType: 'Direct Message',
        description: 'once',
        sender: 'bot',
        adminUser: null,
        message: { text: 'once', images: [] },
        createdBy: null,
      },
      { members: [members[7]!], channels: [] },
    );
    const [row] = (
      (await db.execute(sql`update delivery_recipients set state = 'sending', attempts = 1,
          first_attempt_at = now(), lease_until = now() - interval '1 second'
        where receipt_id = ${id} returning id::int as id`)) as any
    ).rows;
    const bot = env.emu.install(teamId).botToken;
    const posted = await fetch(`${env.emu.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bot}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: members[7],
        text: 'once',
        metadata: { event_type: DELIVERY_EVENT_TYPE, event_payload: { recipient: row.id, receipt: id } },
      }),
    });
    expect(((await posted.json()) as { ok: boolean }).ok).toBe(true);
    expect(await runUntilDone(id)).toMatchObject({
      successful_recipient_count: 1,
      failed_recipient_count: 0,
    });
    expect(delivered(env.emu, teamId, id).get(members[7]!)).toHaveLength(1);
  });

  it('a member deactivated after the send was queued is in the Failed CSV with the reason', async () => {
    const { id } = await deliveryRepo(env.t.ctx.database.db).createReceipt(
      {
        teamId,
        actionType: 'Bulk DM',
        description: 'still here?',
        sender: 'bot',
        adminUser: null,
        message: { text: 'still here?', images: [] },
        createdBy: null,
      },
      { members: [members[8]!, members[9]!], channels: [] },
    );
    env.emu.team(teamId).updateUser(members[9]!, { deletedAt: Math.floor(Date.now() / 1000) - 1 });
    await settleEvents(env);
    const r = await runUntilDone(id);
    expect(r).toMatchObject({ successful_recipient_count: 1, failed_recipient_count: 1 });
    const failed = await csv(id, 'failed');
    expect(failed).toHaveLength(2);
    expect(failed[1]).toContain('"user_deactivated"');
    expect(delivered(env.emu, teamId, id).has(members[9]!)).toBe(false);
  });

  it('Retry sends again to recipients that failed for a passing reason; the same receipt’s counts move', async () => {
    env.emu.setFaults({ errorRate: 1, errorCode: 'internal_error', methods: ['chat.postMessage'] });
    let id: number;
    try {
      const res = await post('/quickaction/dmtomultipleusers', {
        team_id: teamId,
        sender: 'bot',
        users: [members[10], members[11]],
        text: 'retry me',
      });
      id = res.json().data.receipt_id;
      const r = await waitDone(id);
      expect(r).toMatchObject({ failed_recipient_count: 2, retryable_recipient_count: 2 });
    } finally {
      env.emu.clearFaults();
    }
    const retry = await post('/receipts/retry', { team_id: teamId, id });
    expect(retry.json()).toEqual({ message: 'Action initiated', data: { requeued: 2 } });
    const after = await waitDone(id);
    expect(after).toMatchObject({ successful_recipient_count: 2, failed_recipient_count: 0 });
    expect(delivered(env.emu, teamId, id).size).toBe(2);
    // Another workspace's admin cannot read or retry it.
    expect((await post('/receipts/retry', { team_id: teamId, id }, stranger.token)).statusCode).toBe(403);
  });
});
