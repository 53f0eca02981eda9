import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_MODAL_CALLBACK } from '@flywheel/shared/forms';
import type { Notification } from '@flywheel/shared/notifications';
import { firstRow } from '../../db/sql.ts';
import { createLogger } from '../../lib/logger.ts';
import { bearer, signedInUser, uniqueEmail } from '../../testing/factories.ts';
import {
  deliverEvent,
  deliverInteractivity,
  drainDeliveries,
  installThroughOAuth,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import type { FinishedReceipt } from '../delivery/runner-repo.ts';
import { deliveryRepo } from '../delivery/repo.ts';
import { pollsService } from '../polls/service.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

type Person = { token: string; userid: string };

let env: SlackTestEnv;
let owner: Person;
let editor: Person;
let viewer: Person;
/** An admin of another workspace only. */
let stranger: Person;
let teamA: string;
let teamB: string;
let members: string[];
let channel: string;

const call = (who: Person | null, method: 'GET' | 'POST', url: string, payload?: object) =>
  env.t.app.inject({
    method,
    url: `/api/v0${url}`,
    headers: who ? bearer(who.token) : {},
    payload,
  });
const list = async (who: Person, query = '') => {
  const res = await call(who, 'GET', `/notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Notification[]; next_cursor: string | null; unread: number };
};
const ofKind = async (who: Person, kind: Notification['kind']) =>
  (await list(who, '?limit=100')).data.filter((n) => n.kind === kind);

/**
 * The notifications of a receipt's finish: written once its last recipient is committed, by whichever process
 * recorded it (this test's drain or the app's own worker), so they may land a moment after the drain returns.
 */
async function ofReceipt(who: Person, receiptId: number): Promise<Notification[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = (await ofKind(who, 'send.finished')).filter((n) => n.link.endsWith(`=${receiptId}`));
    if (found.length > 0 || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 71, members: 16, channels: 3, days: 2 },
        { seed: 72, members: 8, channels: 2, days: 1 },
      ],
    },
    { DELIVERY_RETRY_BASE_MS: '20', DELIVERY_MAX_ATTEMPTS: '3' },
  );
  [teamA, teamB] = env.emu.teamIds as [string, string];
  owner = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, owner, { teamId: teamA })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: teamB })).statusCode).toBe(200);
  await waitForBackfill(env, owner.token, teamA);
  await waitForBackfill(env, stranger.token, teamB);
  const invited = async (role: 'editor' | 'viewer') => {
    const email = uniqueEmail(role);
    const res = await call(owner, 'POST', '/workspaces/inviteadmin', { team_id: teamA, email, role });
    expect(res.statusCode, res.body).toBe(201);
    return signedInUser(env.t, { email });
  };
  editor = await invited('editor');
  viewer = await invited('viewer');
  members = [...env.emu.truth(teamA).members()]
    .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
    .map((m: any) => m.id);
  channel = (env.emu.truth(teamA).channels() as any[]).find(
    (c) => !c.is_private && !c.is_im && !c.is_archived,
  ).id;
}, 240_000);
afterAll(() => env?.close());

describe('notifications', () => {
  it('the history import finishing tells the admins of that workspace', async () => {
    const [mine] = await ofKind(owner, 'import.finished');
    expect(mine).toMatchObject({ team_id: teamA, tone: 'success', link: '/dashboard/home', read: false });
    expect(mine!.text).toMatch(/^History import finished: [\d,]+ messages? imported$/);
    const theirs = await ofKind(stranger, 'import.finished');
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((n) => n.team_id === teamB)).toBe(true);
  });

  it('a bulk DM finishing: one notification for each admin of the workspace (any role), none elsewhere', async () => {
    const res = await call(owner, 'POST', '/quickaction/dmtomultipleusers', {
      team_id: teamA,
      sender: 'bot',
      users: [members[0], members[1]],
      text: 'Hello from the notifications test',
    });
    expect(res.statusCode, res.body).toBe(202);
    const receiptId = res.json().data.receipt_id as number;
    await drainDeliveries(env, teamA);
    for (const who of [owner, editor, viewer]) {
      const sent = await ofReceipt(who, receiptId);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        team_id: teamA,
        tone: 'success',
        link: `/dashboard/receipts?receipt=${receiptId}`,
        read: false,
        count: 1,
      });
      expect(sent[0]!.text).toBe('Sent: Hello from the notifications test (to 2 members)');
      expect(sent[0]!.workspace_name).toBeTruthy();
    }
    expect(await ofKind(stranger, 'send.finished')).toEqual([]);

    // The same finish recorded again (a worker's retry, a second run finding it done) adds nothing.
    const before = (await list(owner)).unread;
    const row = await firstRow<FinishedReceipt>(
      env.t.ctx.database.db,
      sql`select id, team_id, action_type, description, total, sent, failed, created_by,
          to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
          to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as finished_at
        from delivery_receipts where id = ${receiptId}`,
    );
    await env.t.ctx.services.notifications.sendFinished(row!);
    await env.t.ctx.services.notifications.sendFinished(row!);
    expect((await list(owner)).unread).toBe(before);
    expect(await ofReceipt(editor, receiptId)).toHaveLength(1);
  }, 60_000);

  it('says how many failed, and "failed" when every recipient failed', async () => {
    // One recipient deactivated before the send goes out: one of two fails.
    const gone = members[2]!;
    env.emu.team(teamA).updateUser(gone, { deletedAt: Math.floor(Date.now() / 1000) - 1 });
    await settleEvents(env);
    const { id } = await deliveryRepo(env.t.ctx.database.db).createReceipt(
      {
        teamId: teamA,
        actionType: 'Bulk DM',
        description: 'Half of it',
        sender: 'bot',
        adminUser: null,
        message: { text: 'Half of it', images: [] },
        createdBy: owner.userid,
      },
      { members: [members[3]!, gone], channels: [] },
    );
    await drainDeliveries(env, teamA);
    const [half] = await ofReceipt(viewer, id);
    expect(half).toMatchObject({ tone: 'warning', text: 'Sent, 1 of 2 failed: Half of it' });

    env.emu.setFaults({ errorRate: 1, errorCode: 'internal_error', methods: ['chat.postMessage'] });
    try {
      const res = await call(owner, 'POST', '/quickaction/dmtomultipleusers', {
        team_id: teamA,
        sender: 'bot',
        users: [members[4], members[5]],
        text: 'Nobody gets this',
      });
      expect(res.statusCode, res.body).toBe(202);
      const all = res.json().data.receipt_id as number;
      await drainDeliveries(env, teamA);
      const [failed] = await ofReceipt(editor, all);
      expect(failed).toMatchObject({ tone: 'error' });
      expect(failed!.text).toBe('Failed, all 2 recipients: Nobody gets this (to 2 members)');
    } finally {
      env.emu.clearFaults();
    }
  }, 60_000);

  it('form responses are gathered per form instance until read', async () => {
    const form = await call(owner, 'POST', '/actions/createform', {
      team_id: teamA,
      form_title: 'Weekly <b>check-in</b>',
      form_description: 'How did it go?',
      sender: 'b',
      dms: { members: [members[6], members[7], members[8], members[9]] },
      instant: true,
      questions: [{ question: 'What did you ship?', type: 'descriptive' }],
    });
    expect(form.statusCode, form.body).toBe(201);
    const formId = form.json().data.master_form_id as number;
    await drainDeliveries(env, teamA);
    const [instance] = (await call(owner, 'GET', `/actions/getallforminstances/${teamA}/${formId}`)).json()
      .data;
    const answer = async (member: string, value: string) => {
      const res = await deliverInteractivity(env, {
        type: 'view_submission',
        team: { id: teamA },
        user: { id: member, team_id: teamA },
        view: {
          id: `V${member}`,
          callback_id: FORM_MODAL_CALLBACK,
          private_metadata: JSON.stringify({ instance: instance.form_id }),
          state: { values: { q0: { answer: { type: 'plain_text_input', value } } } },
        },
      });
      expect(res).toEqual({ status: 200, body: undefined });
    };
    await answer(members[6]!, 'one');
    await answer(members[7]!, 'two');
    await answer(members[8]!, 'three');
    await answer(members[8]!, 'three, changed'); // a changed answer is not a new response
    for (const who of [owner, editor, viewer]) {
      const rows = await ofKind(who, 'form.responses');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        count: 3,
        text: '3 new responses to Weekly <b>check-in</b>',
        link: `/dashboard/actions/form-instances/${formId}/${instance.form_id}/responses?name=Weekly%20%3Cb%3Echeck-in%3C%2Fb%3E`,
      });
    }
    // The owner reads it; the next response starts a new one for them, and joins the others' unread one.
    const read = await call(
      owner,
      'POST',
      `/notifications/${(await ofKind(owner, 'form.responses'))[0]!.id}/read`,
    );
    expect(read.statusCode, read.body).toBe(200);
    await answer(members[9]!, 'four');
    expect((await ofKind(owner, 'form.responses')).map((n) => [n.count, n.read])).toEqual([
      [1, false],
      [3, true],
    ]);
    expect((await ofKind(editor, 'form.responses')).map((n) => [n.count, n.read])).toEqual([[4, false]]);
    expect(await ofKind(stranger, 'form.responses')).toEqual([]);
  }, 60_000);

  it('a poll closing tells each admin once', async () => {
    const poll = await call(owner, 'POST', '/poll/createpoll', {
      team_id: teamA,
      channel_ids: [channel],
      poll_question: 'Ship it?',
      htmlquestion: '<p>Ship it?</p>',
      options: [
        { emoji: '👍', emoji_code: 'thumbsup', value: 'Yes' },
        { emoji: '👎', emoji_code: 'thumbsdown', value: 'No' },
      ],
      sender: 'b',
      type: 'instant',
      images: [],
    });
    expect(poll.statusCode, poll.body).toBe(201);
    const pollId = poll.json().data.id as number;
    await drainDeliveries(env, teamA);
    const ctx = env.t.ctx;
    // A worker whose clock is past the poll's end closes it, through the same emission the product wires.
    const later = pollsService({
      db: ctx.database.db,
      audience: ctx.services.audience,
      delivery: ctx.services.delivery,
      timezoneOf: async () => 'UTC',
      jobs: { refresh: async () => {}, closeAt: async () => {}, remove: async () => {} },
      logger: createLogger('silent'),
      now: () => Date.now() + 40 * 24 * 3_600_000,
      emit: ctx.services.emit,
    });
    expect(await later.closeDue(pollId)).toBe(1);
    expect(await later.closeDue(pollId)).toBe(0);
    for (const who of [owner, viewer]) {
      const closed = await ofKind(who, 'poll.closed');
      expect(closed).toHaveLength(1);
      expect(closed[0]).toMatchObject({
        text: 'Poll closed: Ship it? (0 votes)',
        link: `/dashboard/actions/polls?poll=${pollId}`,
      });
    }
  }, 60_000);

  it('lists newest first with a cursor; unread count; mark one and all read; only the caller’s own', async () => {
    // Once nothing more lands (the poll's post finishing is told by a worker, maybe a moment after the drain).
    let all = await list(editor, '?limit=100');
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const again = await list(editor, '?limit=100');
      if (JSON.stringify(again) === JSON.stringify(all)) break;
      all = again;
    }
    expect(all.data.length).toBeGreaterThanOrEqual(5);
    const times = all.data.map((n) => n.at);
    expect([...times].sort().reverse()).toEqual(times);
    // Pages of two walk the same list.
    const walked: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(editor, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(2);
      walked.push(...page.data.map((n) => n.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(walked).toEqual(all.data.map((n) => n.id));

    const unread = (await call(editor, 'GET', '/notifications/unread')).json().unread as number;
    expect(unread).toBe(all.data.filter((n) => !n.read).length);
    expect(unread).toBe(all.unread);
    const first = all.data.find((n) => !n.read)!;
    // Another person's notification: 404, and it stays unread.
    for (const other of [stranger, viewer]) {
      const res = await call(other, 'POST', `/notifications/${first.id}/read`);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    const one = await call(editor, 'POST', `/notifications/${first.id}/read`);
    expect(one.json()).toEqual({ unread: unread - 1 });
    expect((await call(editor, 'POST', `/notifications/${first.id}/read`)).json()).toEqual({
      unread: unread - 1,
    });
    expect((await call(editor, 'POST', '/notifications/readall')).json()).toEqual({ unread: 0 });
    expect((await list(editor)).data.every((n) => n.read)).toBe(true);
    // The others' read state is their own.
    expect((await list(viewer)).unread).toBeGreaterThan(0);
    expect((await call(stranger, 'GET', '/notifications/unread')).json().unread).toBeGreaterThan(0);
  });

  it('bad input is a 400 naming the field; no token is a 401', async () => {
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?cursor=nope', 'cursor'],
      ['?cursor=1-2-3', 'cursor'],
    ] as const) {
      const res = await call(owner, 'GET', `/notifications${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toContain(field);
    }
    const badId = await call(owner, 'POST', '/notifications/abc/read');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toContain('id');
    expect((await call(null, 'GET', '/notifications')).statusCode).toBe(401);
    expect((await call(null, 'POST', '/notifications/readall')).statusCode).toBe(401);
    expect((await call(null, 'GET', '/notifications?limit=0')).statusCode).toBe(401);
  });

  it('Slack disconnecting a workspace tells its admins once', async () => {
    await deliverEvent(env, teamB, { type: 'tokens_revoked', tokens: { bot: ['B1'] } }, 'EvRevoked1');
    await deliverEvent(env, teamB, { type: 'app_uninstalled' }, 'EvUninstalled1');
    await settleEvents(env);
    const told = await ofKind(stranger, 'workspace.disconnected');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ team_id: teamB, tone: 'error', link: '/dashboard/settings/team' });
    expect(told[0]!.text).toMatch(/revoked/);
    expect(await ofKind(owner, 'workspace.disconnected')).toEqual([]);
  });

  it('notifications older than 90 days are removed by the daily job', async () => {
    const db = env.t.ctx.database.db;
    await db.execute(sql`update notifications set at = now() - interval '91 days'
      where user_id = ${viewer.userid} and kind = 'poll.closed'`);
    const removed = await env.t.ctx.services.notifications.purgeExpired();
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await ofKind(viewer, 'poll.closed')).toEqual([]);
    expect(await ofKind(owner, 'poll.closed')).toHaveLength(1);
  });
});
