import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_OPEN_ACTION, FORM_TEXTS } from '@flywheel/shared/forms';
import { typedRows } from '../../db/sql.ts';
import { expectedActivity, storedActivity, workspaceTz } from '../../testing/activity-truth.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  drainDeliveries,
  installThroughOAuth,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { waitFor } from '../../testing/processes.ts';
import { startSocketMode, type SocketModeConnection } from './socket-mode.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Socket Mode against the emulator: the app has no Request URLs at all, so every event and interaction below can
 * only have come over the connection(s) this process opened.
 */
let env: SlackTestEnv;
let teamId: string;
let user: { token: string; userid: string };
const connections: SocketModeConnection[] = [];
const rows = <T>(q: ReturnType<typeof sql>) => typedRows<T>(env.t.ctx.database.db, q);

beforeAll(async () => {
  env = await slackTestEnv(
    { workspace: { seed: 17, members: 30, channels: 4, days: 5 } },
    { BACKFILL_DAYS: '30' },
    { socketMode: true },
  );
  teamId = env.emu.teamIds[0]!;
  connections.push(await startSocketMode(env.t.ctx));
  user = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user)).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  await settleEvents(env);
}, 120_000);
afterAll(async () => {
  for (const c of connections) await c.stop();
  await env.close();
});

const tzOf = () => workspaceTz(env.t.ctx.database.db, teamId);
const expected = (tz: string) => {
  const e = expectedActivity(env.emu, teamId, tz);
  return { ...e, visible: [...e.visible] };
};
const stored = () => storedActivity(env.t.ctx.database.db, teamId);

const people = () =>
  [...env.emu.truth(teamId).members()].filter((m) => !m.is_bot && !m.deleted_at).map((m) => m.id);

/** A scripted burst of live activity: messages, a reply, reactions (one taken back), an edit, a delete. */
function liveActivity(channel: string, tag: string) {
  const team = env.emu.team(teamId);
  const [a, b, c, d, e] = people();
  const first = team.postMessage(channel, { user: a, text: `Socket thread ${tag}` });
  team.postMessage(channel, { user: b, text: `A reply ${tag}`, thread_ts: first.ts });
  team.react(channel, first.ts, 'thumbsup', c!, true);
  team.react(channel, first.ts, 'tada', d!, true);
  team.react(channel, first.ts, 'tada', d!, false);
  team.updateMessage(channel, first.ts, { text: `Socket thread ${tag} (edited)` }, a!);
  const doomed = team.postMessage(channel, { user: e, text: `Deleted ${tag}` });
  team.deleteMessage(channel, doomed.ts);
  for (let i = 0; i < 10; i++)
    team.postMessage(channel, { user: people()[i % 5], text: `burst ${tag} ${i}` });
}

describe('Socket Mode intake', () => {
  it('live events over the socket are counted exactly as ground truth; nothing went to an HTTP route', async () => {
    const tz = await tzOf();
    const channel = expected(tz).visible[0]!;
    liveActivity(channel, 'one');
    await settleEvents(env);
    const want = expected(tz);
    expect(want.live).toBeGreaterThanOrEqual(12);
    const got = await stored();
    expect(got.daily).toEqual(want.daily);
    expect(got.reactions).toEqual(want.reactions);
    const transports = env.emu.transports();
    expect(transports.http).toEqual({ eventPosts: 0, interactions: 0 });
    expect(transports.socket.events).toBeGreaterThanOrEqual(16);
    expect(env.emu.deliveries().every((d) => d.transport === 'socket' && d.state === 'delivered')).toBe(true);
  });

  it('two connections: each event is taken by one, every one sent again on the other is counted once', async () => {
    connections.push(await startSocketMode(env.t.ctx));
    await waitFor(
      async () =>
        env.emu.socketMode.connections().filter((c) => !c.draining).length === 2 ? true : undefined,
      10_000,
    );
    const tz = await tzOf();
    const channel = expected(tz).visible[1] ?? expected(tz).visible[0]!;
    const before = env.emu.deliveries().length;
    liveActivity(channel, 'two');
    await settleEvents(env);
    const fresh = env.emu.deliveries().slice(before);
    const perConnection = env.emu.socketMode.connections().map((c) => c.received);
    expect(perConnection.every((n) => n > 0)).toBe(true);
    const once = await stored();
    // Slack sends every one of them again (same event_id, retry_attempt 1): the round robin puts the copies on
    // the other connection for about half of them.
    for (const d of fresh) {
      const res = await fetch(`${env.emu.url}/_admin/deliveries/${d.eventId}/redeliver`, { method: 'POST' });
      expect(res.status).toBe(200);
    }
    await settleEvents(env);
    expect(
      env.emu
        .deliveries()
        .slice(before)
        .filter((d) => d.attempts[0]?.retryNum === 1),
    ).toHaveLength(fresh.length);
    expect(await stored()).toEqual(once);
    const want = expected(tz);
    expect(once.daily).toEqual(want.daily);
    expect(once.reactions).toEqual(want.reactions);
    const [inbox] = await rows<{ n: number }>(
      sql`select count(*)::int as n from slack_inbox where event_id = any(${sql.param(fresh.map((d) => d.eventId))}::text[])`,
    );
    expect(inbox!.n).toBe(fresh.length);
    expect(env.emu.transports().http.eventPosts).toBe(0);
  });

  it('Slack refreshes the connections (disconnect refresh_requested): the clients reconnect and no event is lost', async () => {
    const tz = await tzOf();
    const channel = expected(tz).visible[0]!;
    const opened = env.emu.socketMode.stats().connectionsOpened;
    const before = env.emu.deliveries().length;
    const open = env.emu.socketMode.connections().length;
    expect(env.emu.socketMode.disconnect('refresh_requested')).toBe(open);
    liveActivity(channel, 'three'); // while no connection takes envelopes
    await waitFor(
      async () =>
        env.emu.socketMode.stats().connectionsOpened >= opened + open &&
        env.emu.socketMode.connections().filter((c) => !c.draining).length === open
          ? true
          : undefined,
      30_000,
    );
    await settleEvents(env);
    const fresh = env.emu.deliveries().slice(before);
    expect(fresh.length).toBeGreaterThanOrEqual(16);
    expect(fresh.filter((d) => d.state !== 'delivered')).toEqual([]);
    const want = expected(tz);
    const got = await stored();
    expect(got.daily).toEqual(want.daily);
    expect(got.reactions).toEqual(want.reactions);
  });

  it("a modal's view_submission with errors gets its response_action back through the ack", async () => {
    const member = people().find((m) => !env.emu.team(teamId).users.get(m)?.isPrimaryOwner)!;
    const created = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/actions/createform',
      headers: bearer(user.token),
      payload: {
        team_id: teamId,
        form_title: 'Socket check-in',
        form_description: 'Over the socket',
        sender: 'b',
        dms: { members: [member] },
        instant: true,
        questions: [{ question: 'What did you ship?', type: 'descriptive' }],
      },
    });
    expect(created.statusCode).toBe(201);
    await drainDeliveries(env, teamId);
    const im = (env.emu.truth(teamId).channels() as any[]).find(
      (c) => c.is_im && c.members?.includes(member),
    );
    const formMsg = [...(env.emu.truth(teamId).messages() as Iterable<any>)].find(
      (m) => m.channel === im.id && JSON.stringify(m.blocks ?? []).includes(FORM_OPEN_ACTION),
    );
    const click = await env.emu.interactivity.clickButton({
      teamId,
      userId: member,
      channel: im.id,
      message: env.emu.team(teamId).messages.find(im.id, formMsg.ts) as never,
      actionId: FORM_OPEN_ACTION,
    });
    expect(click.status).toBe(200);
    const view = env.emu.interactivity.surfaces(member).view as any;
    expect(view).toMatchObject({ callback_id: 'flywheel_form', title: { text: 'Socket check-in' } });
    const bad = await env.emu.interactivity.submitView(member, view.id, {
      q0: { answer: { type: 'plain_text_input', value: '   ' } },
    });
    expect(bad).toEqual({
      status: 200,
      body: { response_action: 'errors', errors: { q0: FORM_TEXTS.answerRequired } },
    });
    expect(env.emu.interactivity.surfaces(member).view).not.toBeNull();
    const good = await env.emu.interactivity.submitView(member, view.id, {
      q0: { answer: { type: 'plain_text_input', value: 'Socket Mode' } },
    });
    expect(good.status).toBe(200);
    expect(env.emu.interactivity.surfaces(member).view).toBeNull();
    const [answer] = await rows<{ n: number }>(
      sql`select count(*)::int as n from form_responses where team_id = ${teamId} and member_id = ${member}`,
    );
    expect(answer!.n).toBe(1);
    expect(env.emu.transports()).toMatchObject({
      http: { interactions: 0 },
      socket: { interactions: 3 },
    });
  });
});
