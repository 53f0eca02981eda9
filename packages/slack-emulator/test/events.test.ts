import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../src/index.ts';
import { emulator, receiver, waitFor, type Emu } from './helpers.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

async function setup(
  answer?: Parameters<typeof receiver>[0],
  events = { retryDelaysMs: [50, 100, 150], timeoutMs: 300 },
  verification: Parameters<typeof receiver>[1] = 'echo',
) {
  const app = await receiver(answer, verification);
  const emu: Emu = await emulator({ events });
  cleanup.push(
    () => emu.close(),
    () => app.close(),
  );
  return { app, emu };
}
const parse = (body: string) =>
  JSON.parse(body) as { type: string; challenge?: string; event: Record<string, unknown>; event_id: string };

describe('Events API delivery', () => {
  it('verifies the request URL with url_verification, signed', async () => {
    const { app, emu } = await setup(
      (r) => ({ body: JSON.stringify({ challenge: parse(r.body).challenge }) }),
      undefined,
      'answer',
    );
    expect(await emu.setEventsUrl(app.url)).toBe(true);
    const r = app.received[0];
    expect(parse(r?.body as string).type).toBe('url_verification');
    const ok = verifySignature({
      signingSecret: emu.app.signingSecret,
      timestamp: String(r?.headers['x-slack-request-timestamp']),
      signature: String(r?.headers['x-slack-signature']),
      body: r?.body as string,
    });
    expect(ok).toBe(true);
    const { app: wrong } = await setup(() => ({ body: 'nope' }), undefined, 'answer');
    expect(await emu.setEventsUrl(wrong.url)).toBe(false);
  });

  it('delivers nothing to an events URL whose verification failed, as Slack does', async () => {
    const { app, emu } = await setup(
      (r) => (parse(r.body).type === 'url_verification' ? { body: 'not the challenge' } : {}),
      undefined,
      'answer',
    );
    emu.install();
    expect(await emu.setEventsUrl(app.url)).toBe(false);
    emu.team().addMember({ realName: 'Never Sent' });
    await emu.eventsIdle();
    expect(app.received.map((r) => parse(r.body).type)).toEqual(['url_verification']);
    expect(emu.deliveries().find((d) => d.type === 'team_join')).toMatchObject({
      state: 'failed',
      attempts: [],
    });
  });

  it("a member's reactions through the member page's API are reaction_added/removed as Slack documents them, with increasing event_ts", async () => {
    const { app, emu } = await setup();
    const install = emu.install();
    await emu.setEventsUrl(app.url);
    const client = new WebClient(install.botToken, { slackApiUrl: emu.apiUrl });
    const team = emu.team();
    const general = team.channels.all()[0]!.id;
    await client.conversations.join({ channel: general });
    const posted = await client.chat.postMessage({ channel: general, text: 'Vote!' });
    const member = team.channels.members(general).find((u) => !team.users.get(u)?.isBot)!;
    const react = (name: string) =>
      fetch(`${emu.url}/_ui/api/react`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ team: team.id, user: member, channel: general, ts: posted.ts, name }),
      }).then((r) => r.json() as Promise<{ added: boolean }>);
    expect(await react('tada')).toMatchObject({ added: true });
    expect(await react('rocket')).toMatchObject({ added: true });
    expect(await react('tada')).toMatchObject({ added: false });
    await emu.eventsIdle();
    const got = app.received
      .map((r) => parse(r.body))
      .filter((b) => b.type === 'event_callback' && String(b.event.type).startsWith('reaction_'))
      .map((b) => b.event);
    expect(got.map((e) => [e.type, e.reaction])).toEqual([
      ['reaction_added', 'tada'],
      ['reaction_added', 'rocket'],
      ['reaction_removed', 'tada'],
    ]);
    for (const e of got)
      expect(e).toEqual({
        type: e.type,
        user: member,
        reaction: e.reaction,
        item_user: install.botUserId,
        item: { type: 'message', channel: general, ts: posted.ts },
        event_ts: expect.stringMatching(/^\d{10}\.\d{6}$/),
      });
    const stamps = got.map((e) => String(e.event_ts));
    // Same millisecond or not, each event_ts is after the one before: it orders the events.
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]! > stamps[i - 1]!).toBe(true);
  });

  it('delivers the events writes produce, only for channels the app is in', async () => {
    const { app, emu } = await setup();
    const install = emu.install();
    await emu.setEventsUrl(app.url);
    const client = new WebClient(install.botToken, { slackApiUrl: emu.apiUrl });
    const team = emu.team();
    const [general, random] = team.channels.all();
    const member = team.channels.members(random?.id as string)[0] as string;
    team.postMessage(random?.id as string, { user: member, text: 'not delivered: app not in channel' });
    await client.conversations.join({ channel: general?.id as string });
    const posted = await client.chat.postMessage({ channel: general?.id as string, text: 'hi' });
    await client.chat.postMessage({ channel: general?.id as string, text: 'reply', thread_ts: posted.ts });
    await client.chat.update({ channel: general?.id as string, ts: posted.ts as string, text: 'hi!' });
    await client.reactions.add({
      channel: general?.id as string,
      timestamp: posted.ts as string,
      name: 'eyes',
    });
    await client.reactions.remove({
      channel: general?.id as string,
      timestamp: posted.ts as string,
      name: 'eyes',
    });
    await client.chat.delete({ channel: general?.id as string, ts: posted.ts as string });
    const newbie = team.addMember({ realName: 'Nora New' });
    team.updateUser(newbie.id, { deletedAt: 1 });
    const created = team.createChannel('launch', member);
    team.renameChannel(created.id, 'launch-2026');
    team.leaveChannel(general?.id as string, member);
    emu.uninstall();
    await emu.eventsIdle();
    const got = app.received
      .map((r) => parse(r.body))
      .filter((b) => b.type === 'event_callback')
      .map((b) => b.event);
    const kinds = got.map((e) => [e.type, e.subtype].filter(Boolean).join('/'));
    expect(kinds).toEqual(
      expect.arrayContaining([
        'member_joined_channel',
        'message/channel_join',
        'message',
        'message/message_changed',
        'reaction_added',
        'reaction_removed',
        'message/message_deleted',
        'team_join',
        'user_change',
        'channel_created',
        'channel_rename',
        'member_left_channel',
        'message/channel_leave',
        'app_uninstalled',
        'tokens_revoked',
      ]),
    );
    expect(got.some((e) => e.text === 'not delivered: app not in channel')).toBe(false);
    const reply = got.find((e) => e.text === 'reply');
    expect(reply).toMatchObject({
      thread_ts: posted.ts,
      parent_user_id: install.botUserId,
      channel_type: 'channel',
    });
    expect(
      got.find((e) => e.type === 'user_change' && (e.user as { deleted: boolean }).deleted),
    ).toBeDefined();
    expect(got.find((e) => e.type === 'tokens_revoked')).toMatchObject({
      tokens: { bot: [install.botUserId], oauth: [install.installerId] },
    });
    expect((await client.auth.test().catch((e: { data: unknown }) => e.data)) as unknown).toMatchObject({
      error: 'invalid_auth',
    });
  });

  it('archive, unarchive and rename: channel_* for a public channel, group_* for a private one the app is in', async () => {
    const { app, emu } = await setup();
    const install = emu.install();
    await emu.setEventsUrl(app.url);
    const team = emu.team();
    const member = team.channels.members(team.channels.all()[0]?.id as string)[0] as string;
    const open = team.createChannel('open-room', member);
    const secret = team.createChannel('secret-room', member, true);
    const unseen = team.createChannel('unseen-room', member, true);
    team.joinChannel(secret.id, install.botUserId, member);
    team.archiveChannel(open.id, true, member);
    team.archiveChannel(open.id, false, member);
    team.renameChannel(secret.id, 'secret-room-2');
    team.archiveChannel(secret.id, true, member);
    team.archiveChannel(secret.id, false, member);
    team.renameChannel(unseen.id, 'unseen-room-2');
    team.archiveChannel(unseen.id, true, member);
    await emu.eventsIdle();
    const got = app.received
      .map((r) => parse(r.body))
      .filter((b) => b.type === 'event_callback')
      .map((b) => b.event)
      .filter((e) => /^(channel|group)_(archive|unarchive|rename)$/.test(String(e.type)));
    expect(got).toEqual([
      expect.objectContaining({ type: 'channel_archive', channel: open.id, user: member }),
      expect.objectContaining({ type: 'channel_unarchive', channel: open.id, user: member }),
      expect.objectContaining({
        type: 'group_rename',
        channel: { id: secret.id, name: 'secret-room-2', created: secret.created },
      }),
      expect.objectContaining({ type: 'group_archive', channel: secret.id }),
      expect.objectContaining({ type: 'group_unarchive', channel: secret.id }),
    ]);
    expect(team.channels.get(unseen.id)?.isArchived).toBe(true);
  });

  it('retries non-200 answers with X-Slack-Retry-Num / X-Slack-Retry-Reason', async () => {
    const seen = new Map<string, number>();
    const { app, emu } = await setup((r) => {
      const id = parse(r.body).event_id;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      return { status: id && (seen.get(id) ?? 0) < 3 ? 500 : 200 };
    });
    const install = emu.install();
    await emu.setEventsUrl(app.url);
    const team = emu.team();
    team.joinChannel(team.channels.all()[0]?.id as string, install.botUserId);
    await emu.eventsIdle();
    const events = app.received.filter((r) => parse(r.body).type === 'event_callback');
    const first = parse(events[0]?.body as string).event_id;
    const same = events.filter((r) => parse(r.body).event_id === first);
    expect(same.map((r) => r.headers['x-slack-retry-num'])).toEqual([undefined, '1', '2']);
    expect(same[1]?.headers['x-slack-retry-reason']).toBe('http_error');
    expect(emu.deliveries()[0]).toMatchObject({ state: 'delivered' });
  });

  it('POST /_admin/deliveries/:event/redeliver: team_join again, same event_id as a retry, or a new event_id', async () => {
    const { app, emu } = await setup();
    emu.install();
    await emu.setEventsUrl(app.url);
    const res = await fetch(`${emu.url}/_admin/teams/${emu.team().id}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ realName: 'Newt Member' }),
    });
    const user = (await res.json()) as { id: string };
    await emu.eventsIdle();
    const joins = () =>
      app.received
        .filter((r) => parse(r.body).event?.type === 'team_join')
        .map((r) => ({ r, e: parse(r.body) }));
    const [first] = joins();
    expect(first?.e.event).toMatchObject({ type: 'team_join', user: { id: user.id } });
    const again = async (body: object) =>
      fetch(`${emu.url}/_admin/deliveries/${first!.e.event_id}/redeliver`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await again({})).status).toBe(200);
    expect((await again({ newEventId: true })).status).toBe(200);
    await emu.eventsIdle();
    const all = joins();
    expect(all).toHaveLength(3);
    expect(all[1]!.e.event_id).toBe(first!.e.event_id);
    expect(all[1]!.r.headers['x-slack-retry-num']).toBe('1');
    expect(all[1]!.r.headers['x-slack-retry-reason']).toBe('http_timeout');
    expect(all[2]!.e.event_id).not.toBe(first!.e.event_id);
    expect(all[2]!.r.headers['x-slack-retry-num']).toBeUndefined();
    expect(all.map((j) => j.e.event)).toEqual([first!.e.event, first!.e.event, first!.e.event]);
    const missing = await fetch(`${emu.url}/_admin/deliveries/EvNOPE/redeliver`, { method: 'POST' });
    expect(missing.status).toBe(404);
  });

  it('retries slow answers as http_timeout, gives up after 3 retries, honours X-Slack-No-Retry', async () => {
    const { app, emu } = await setup(() => ({ delayMs: 500 }));
    emu.install();
    await emu.setEventsUrl(app.url);
    emu.team().addMember({ realName: 'Slow Poke' });
    await emu.eventsIdle();
    const retries = app.received.filter((r) => parse(r.body).event?.type === 'team_join');
    expect(retries.map((r) => r.headers['x-slack-retry-num'])).toEqual([undefined, '1', '2', '3']);
    expect(retries[3]?.headers['x-slack-retry-reason']).toBe('http_timeout');
    expect(emu.deliveries().find((d) => d.type === 'team_join')?.state).toBe('failed');

    const { app: noRetry, emu: emu2 } = await setup(() => ({
      status: 503,
      headers: { 'x-slack-no-retry': '1' },
    }));
    emu2.install();
    await emu2.setEventsUrl(noRetry.url);
    emu2.team().addMember({ realName: 'Once Only' });
    await emu2.eventsIdle();
    await waitFor(() => noRetry.received.length >= 2);
    expect(noRetry.received.filter((r) => r.body.includes('team_join'))).toHaveLength(1);
  });
});
