import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_MODAL_CALLBACK } from '@flywheel/shared/forms';
import { WEBHOOK_EVENT_TYPES } from '@flywheel/shared/webhooks';
import { createLogger } from '../../lib/logger.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  deliverInteractivity,
  drainDeliveries,
  installThroughOAuth,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { connectedWorkspace } from '../../testing/workspace.ts';
import { pollsService } from '../polls/service.ts';
import { webhooksRepo } from './repo.ts';
import { postDelivery } from './send.ts';
import { isPrivateAddress } from './target.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The verification recipe of docs/webhooks.md, as a receiver writes it (kept identical to the docs' snippet).
 */
function verifyFlywheelSignature(
  secret: string,
  headers: http.IncomingHttpHeaders,
  rawBody: string,
  toleranceSeconds = 300,
): boolean {
  const timestamp = String(headers['x-flywheel-timestamp'] ?? '');
  const signature = String(headers['x-flywheel-signature'] ?? '');
  if (!timestamp || !signature) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected =
    'v1=' + crypto.createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return (
    expected.length === signature.length &&
    crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
  );
}

type Received = { headers: http.IncomingHttpHeaders; body: string; status: number };

/** A local receiver on an ephemeral port: records every request; `answer` picks each one's status. */
async function receiver(answer: (n: number) => number = () => 200) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const status = answer(got.length);
      got.push({ headers: req.headers, body, status });
      res.writeHead(status).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { got, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('webhooks through the product (a local receiver, private targets allowed)', () => {
  let env: SlackTestEnv;
  let user: { token: string; userid: string };
  let teamId: string;
  let members: string[];
  let channel: string;
  const receivers: Awaited<ReturnType<typeof receiver>>[] = [];

  beforeAll(async () => {
    env = await slackTestEnv(
      { workspaces: [{ seed: 61, members: 16, channels: 3, days: 2 }] },
      { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_BASE_MS: '50', DELIVERY_RETRY_BASE_MS: '20' },
    );
    [teamId] = env.emu.teamIds as [string];
    user = await signedInUser(env.t);
    expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
    await waitForBackfill(env, user.token, teamId);
    members = [...env.emu.truth(teamId).members()]
      .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
      .map((m: any) => m.id);
    channel = (env.emu.truth(teamId).channels() as any[]).find(
      (c) => !c.is_private && !c.is_im && !c.is_archived,
    ).id;
  }, 180_000);
  afterAll(async () => {
    await env?.close();
    for (const r of receivers) await r.close();
  });

  const call = (method: 'POST' | 'GET' | 'DELETE' | 'PATCH', url: string, payload?: object) =>
    env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(user.token), payload });
  const subscribe = async (url: string, events: readonly string[]) => {
    const res = await call('POST', '/webhooks/createwebhook', { team_id: teamId, url, events });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; secret: string };
  };
  const admin = (path: string, body: object) =>
    fetch(`${env.emu.url}/_admin/teams/${teamId}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>);

  it('a signed delivery of each event type, triggered where it happens, verified with the documented recipe', async () => {
    const r = await receiver();
    receivers.push(r);
    const sub = await subscribe(r.url, WEBHOOK_EVENT_TYPES);
    expect(sub.secret).toMatch(/^whsec_/);
    // The secret is shown once: never in the list.
    expect((await call('GET', `/webhooks/${teamId}`)).body).not.toContain(sub.secret);

    // A workspace-join workflow whose step DMs a member who then leaves: it fails for the next joiner.
    const leaver = members[members.length - 1]!;
    const wf = await call('POST', '/workflows/createworkflow', {
      team_id: teamId,
      workflow_name: 'Fragile welcome',
      sender: 'b',
      trigger_type: 'workspace_join',
      tasks: [
        {
          type: 'message',
          msgTitle: 'To a leaver',
          text: 'Only for them',
          delay: null,
          sendToSelectedUsers: false,
          dms: { members: [leaver] },
        },
      ],
    });
    expect(wf.statusCode, wf.body).toBe(201);
    await admin(`members/${leaver}`, { deleted: true }); // member.left
    await settleEvents(env);
    const joiner = (await admin('members', { realName: 'Hook Newcomer' })).id as string; // member.joined
    await settleEvents(env);
    await until('the workflow step failing', async () =>
      r.got.find((g) => JSON.parse(g.body).type === 'workflow.step_failed'),
    );

    // A form to a member, answered in Slack: form.response; its send finishing: send.finished.
    const form = await call('POST', '/actions/createform', {
      team_id: teamId,
      form_title: 'Hook check-in',
      form_description: 'How did it go?',
      sender: 'b',
      dms: { members: [members[0]] },
      instant: true,
      questions: [{ question: 'What did you ship?', type: 'descriptive' }],
    });
    expect(form.statusCode, form.body).toBe(201);
    await drainDeliveries(env, teamId);
    const [instance] = (
      await call('GET', `/actions/getallforminstances/${teamId}/${form.json().data.master_form_id}`)
    ).json().data;
    const answered = await deliverInteractivity(env, {
      type: 'view_submission',
      team: { id: teamId },
      user: { id: members[0], team_id: teamId },
      view: {
        id: 'VHOOK01',
        callback_id: FORM_MODAL_CALLBACK,
        private_metadata: JSON.stringify({ instance: instance.form_id }),
        state: { values: { q0: { answer: { type: 'plain_text_input', value: 'Webhooks' } } } },
      },
    });
    expect(answered).toEqual({ status: 200, body: undefined });

    // A poll posted, then closed at its end (a worker whose clock is past it): poll.closed.
    const poll = await call('POST', '/poll/createpoll', {
      team_id: teamId,
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
    await drainDeliveries(env, teamId);
    const ctx = env.t.ctx;
    const later = pollsService({
      db: ctx.database.db,
      audience: ctx.services.audience,
      delivery: ctx.services.delivery,
      timezoneOf: async () => 'UTC',
      jobs: { refresh: async () => {}, closeAt: async () => {}, remove: async () => {} },
      logger: createLogger('silent'),
      now: () => Date.now() + 40 * 24 * 3_600_000,
      emit: ctx.services.webhooks.emit,
    });
    expect(await later.closeDue(poll.json().data.id)).toBe(1);

    const byType = await until('one delivery of every type', () => {
      const seen = new Map<string, Received>();
      for (const g of r.got) seen.set(JSON.parse(g.body).type, g);
      return WEBHOOK_EVENT_TYPES.every((t) => seen.has(t)) ? seen : undefined;
    });
    for (const [type, g] of byType) {
      expect(verifyFlywheelSignature(sub.secret, g.headers, g.body), type).toBe(true);
      expect(verifyFlywheelSignature('whsec_wrong', g.headers, g.body)).toBe(false);
      expect(verifyFlywheelSignature(sub.secret, g.headers, g.body.replace('}', ' }'))).toBe(false);
      const body = JSON.parse(g.body);
      expect(body).toEqual({
        id: g.headers['x-flywheel-event-id'],
        type,
        version: 1,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        team_id: teamId,
        data: expect.any(Object),
      });
      expect(g.headers['content-type']).toBe('application/json');
    }
    const data = (t: string) => JSON.parse(byType.get(t)!.body).data;
    expect(data('member.left').member_id).toBe(leaver);
    expect(
      r.got
        .filter((g) => JSON.parse(g.body).type === 'member.joined')
        .map((g) => JSON.parse(g.body).data.member_id),
    ).toEqual([joiner]);
    expect(data('workflow.step_failed')).toMatchObject({ workflow_name: 'Fragile welcome' });
    expect(data('form.response')).toMatchObject({ member_id: members[0], form_name: 'Hook check-in' });
    expect(data('form.response').answers[0].answer).toBe('Webhooks');
    expect(data('poll.closed')).toMatchObject({ question: 'Ship it?', total_votes: 0 });
    expect(data('poll.closed').options.map((o: any) => o.text)).toEqual(['Yes', 'No']);
    expect(data('send.finished')).toMatchObject({ total: expect.any(Number), sent: expect.any(Number) });

    // Every delivery is in the log, delivered on its first try (once the form's acknowledgement DM, sent after the
    // answer, has finished and been delivered too).
    await drainDeliveries(env, teamId);
    const log = await until('the log settled', async () => {
      const rows = (await call('GET', `/webhooks/${teamId}/${sub.id}/deliveries`)).json().data as any[];
      return rows.every((d) => d.status !== 'pending') && rows.length === r.got.length ? rows : undefined;
    });
    expect(log.every((d) => d.status === 'delivered' && d.attempts === 1 && d.response_code === 200)).toBe(
      true,
    );
    expect(new Set(r.got.map((g) => g.headers['x-flywheel-event-id'])).size).toBe(r.got.length);

    // Replay: the same event (same id) once more, logged as a replay of the first.
    const first = log[log.length - 1];
    const replay = await call('POST', `/webhooks/${teamId}/${sub.id}/deliveries/${first.id}/replay`);
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.json().data).toMatchObject({ replay_of: first.id, event_id: first.event_id });
    const again = await until('the replay', () =>
      r.got.find((g) => g.headers['x-flywheel-delivery-id'] === String(replay.json().data.id)),
    );
    expect(again.headers['x-flywheel-event-id']).toBe(first.event_id);
    expect(verifyFlywheelSignature(sub.secret, again.headers, again.body)).toBe(true);
  }, 240_000);

  it('a receiver that fails 5 times then recovers gets every delivery once, in order', async () => {
    const r = await receiver((n) => (n < 5 ? 500 : 200));
    receivers.push(r);
    const sub = await subscribe(r.url, ['member.joined']);
    const joined: string[] = [];
    for (const name of ['Ann First', 'Bob Second', 'Cat Third']) {
      joined.push((await admin('members', { realName: name })).id);
      await settleEvents(env);
    }
    const ok = await until('three deliveries', () => {
      const done = r.got.filter((g) => g.status === 200);
      return done.length >= 3 ? done : undefined;
    });
    // Let any stray duplicate arrive before counting.
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.got.map((g) => g.status)).toEqual([500, 500, 500, 500, 500, 200, 200, 200]);
    expect(ok.map((g) => JSON.parse(g.body).data.member_id)).toEqual(joined);
    const ids = r.got.filter((g) => g.status === 200).map((g) => g.headers['x-flywheel-event-id']);
    expect(new Set(ids).size).toBe(3);
    // The first five tries were all the first event's.
    expect(new Set(r.got.slice(0, 6).map((g) => g.headers['x-flywheel-event-id'])).size).toBe(1);
    const log = (await call('GET', `/webhooks/${teamId}/${sub.id}/deliveries`)).json().data as any[];
    expect(log.map((d) => [d.status, d.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 6],
    ]);
  }, 120_000);

  it('paused: nothing is sent until resumed, then in order; deleted: gone', async () => {
    const r = await receiver();
    receivers.push(r);
    const sub = await subscribe(r.url, ['member.joined']);
    const paused = await call('PATCH', `/webhooks/${teamId}/${sub.id}`, { enabled: false });
    expect(paused.statusCode, paused.body).toBe(200);
    const id = (await admin('members', { realName: 'Dee Paused' })).id;
    await settleEvents(env);
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.got).toEqual([]);
    // Paused subscriptions get no new events; resuming sends what was queued before the pause (none here).
    expect(
      (await call('PATCH', `/webhooks/${teamId}/${sub.id}`, { enabled: true })).json().data.enabled,
    ).toBe(true);
    const id2 = (await admin('members', { realName: 'Eve Resumed' })).id;
    await settleEvents(env);
    await until('the resumed delivery', () => r.got[0]);
    expect(r.got.map((g) => JSON.parse(g.body).data.member_id)).toEqual([id2]);
    expect(id).not.toBe(id2);
    expect((await call('DELETE', `/webhooks/${teamId}/${sub.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/webhooks/${teamId}/${sub.id}/deliveries`)).statusCode).toBe(404);
  }, 60_000);
});

describe('webhook targets by default (https and public only)', () => {
  let t: TestApp;
  let user: { token: string; userid: string };
  const teamId = 'TWEBHOOK1';
  beforeAll(async () => {
    t = await buildTestApp();
    user = await signedInUser(t);
    await connectedWorkspace(t, teamId, { userId: user.userid });
  }, 60_000);
  afterAll(() => t?.close());

  const create = (url: string, events: unknown = ['member.joined']) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v0/webhooks/createwebhook',
      headers: bearer(user.token),
      payload: { team_id: teamId, url, events },
    });

  it.each([
    ['https://127.0.0.1/hook', 'public'],
    ['https://localhost/hook', 'public'],
    ['https://169.254.169.254/latest/meta-data', 'public'],
    ['https://10.1.2.3/hook', 'public'],
    ['https://192.168.1.10/hook', 'public'],
    ['https://[::1]/hook', 'public'],
    ['https://[fd00::1]/hook', 'public'],
    ['https://[fe80::1]/hook', 'public'],
    ['https://[::ffff:127.0.0.1]/hook', 'public'],
    ['http://hooks.example.com/hook', 'https'],
    ['ftp://hooks.example.com/hook', 'https'],
    ['not a url', 'absolute URL'],
  ])('%s is refused (400 naming url)', async (url, why) => {
    const res = await create(url);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/^url /);
    expect(res.json().message).toContain(why);
  });

  it('a public https target is accepted; bad event types are 400 naming events', async () => {
    const ok = await create('https://hooks.example.com/flywheel');
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data).toMatchObject({ url: 'https://hooks.example.com/flywheel', enabled: true });
    const stored = await t.ctx.database.db.execute(`select secret_sealed from webhook_subscriptions` as any);
    const sealed = (stored as any).rows[0].secret_sealed as string;
    expect(sealed).not.toContain(ok.json().data.secret);
    expect(sealed.startsWith('v1.')).toBe(true);
    for (const events of [[], ['level.changed'], 'member.joined']) {
      const res = await create('https://hooks.example.com/x', events);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/events/);
    }
  });

  it('at delivery, a name resolving to a private address and an http URL are refused without a request', async () => {
    const r = await receiver();
    try {
      const port = new URL(r.url).port;
      const base = { body: '{}', secret: 's', eventId: 'evt_1', deliveryId: 1, timeoutMs: 2000 };
      const byName = await postDelivery({
        ...base,
        url: `https://localhost:${port}/hook`,
        allowPrivate: false,
      });
      expect(byName).toMatchObject({ ok: false, status: null });
      expect(byName.error).toMatch(/refused: .*private address/);
      const plain = await postDelivery({ ...base, url: r.url, allowPrivate: false });
      expect(plain.error).toMatch(/refused: url must be https/);
      const literal = await postDelivery({
        ...base,
        url: `https://127.0.0.1:${port}/hook`,
        allowPrivate: false,
      });
      expect(literal.error).toMatch(/refused/);
      expect(r.got).toEqual([]);
      // Allowed: the same receiver gets it.
      expect((await postDelivery({ ...base, url: r.url, allowPrivate: true })).ok).toBe(true);
      expect(r.got).toHaveLength(1);
    } finally {
      await r.close();
    }
  });

  it('redirects are not followed; a slow receiver times out', async () => {
    let hits = 0;
    const server = http.createServer((req, res) => {
      hits++;
      if (req.url === '/slow') return setTimeout(() => res.writeHead(200).end(), 3000);
      res.writeHead(302, { location: '/elsewhere' }).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const o = { body: '{}', secret: 's', eventId: 'evt_2', deliveryId: 2, allowPrivate: true };
      const redirected = await postDelivery({ ...o, url: `${base}/hook`, timeoutMs: 2000 });
      expect(redirected).toMatchObject({ ok: false, status: 302 });
      expect(hits).toBe(1);
      const slow = await postDelivery({ ...o, url: `${base}/slow`, timeoutMs: 300 });
      expect(slow).toMatchObject({ ok: false, status: null });
      expect(slow.error).toMatch(/timed out/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('emit never fails its caller: called inside a transaction (a mistake) it logs and returns', async () => {
    const db = t.ctx.database.db;
    await expect(
      db.transaction(async (tx) => {
        await t.ctx.services.webhooks.emit(teamId, 'member.joined', { member_id: 'U1' });
        return tx.execute('select 1' as never);
      }),
    ).resolves.toBeDefined();
  });

  it('the tick drops events older than 30 days with nothing pending, and keeps the rest', async () => {
    const db = t.ctx.database.db;
    const sub = (await create('https://hooks.example.com/prune')).json().data;
    await t.ctx.services.webhooks.emit(teamId, 'member.joined', { member_id: 'U2' });
    await t.ctx.services.webhooks.emit(teamId, 'member.joined', { member_id: 'U3' });
    const count = async (q: string) => ((await db.execute(q as never)) as any).rows[0].n as number;
    expect(
      await count(`select count(*)::int as n from webhook_deliveries where subscription_id = ${sub.id}`),
    ).toBe(2);
    await db.execute(`update webhook_events set created_at = now() - interval '31 days'` as never);
    // One of the two is still pending: it stays; the other was given up (to every subscription): it goes.
    await db.execute(
      `update webhook_deliveries set status = 'failed' where event_id = (select event_id from webhook_deliveries where subscription_id = ${sub.id} order by id limit 1)` as never,
    );
    await t.ctx.services.webhooks.wakeDue();
    expect(
      await count(`select count(*)::int as n from webhook_deliveries where subscription_id = ${sub.id}`),
    ).toBe(1);
    expect(
      await count(
        `select count(*)::int as n from webhook_deliveries where subscription_id = ${sub.id} and status = 'pending'`,
      ),
    ).toBe(1);
  });

  it("an attempt's result does not bring back a delivery that stopped being pending meanwhile", async () => {
    const db = t.ctx.database.db;
    const sub = (await create('https://hooks.example.com/late')).json().data;
    await t.ctx.services.webhooks.emit(teamId, 'member.joined', { member_id: 'U4' });
    const status = async () =>
      (
        (await db.execute(
          `select id, status from webhook_deliveries where subscription_id = ${sub.id}` as never,
        )) as unknown as { rows: { id: number; status: string }[] }
      ).rows[0]!;
    const { id } = await status();
    await db.execute(`update webhook_deliveries set status = 'failed' where id = ${id}` as never);
    const attempt = { responseCode: null, error: 'timed out', durationMs: 5, nextAttemptAt: new Date() };
    await webhooksRepo(db).recordAttempt(id, { status: 'pending', ...attempt });
    expect((await status()).status).toBe('failed');
  });

  it('address classes', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::',
      'fc00::1',
      'fdff::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '100.64.0.1',
    ])
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '172.32.0.1'])
      expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });
});
