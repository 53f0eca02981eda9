import { LogLevel, SocketModeClient } from '@slack/socket-mode';
import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { emulator, waitFor, type Emu } from './helpers.ts';

/**
 * Socket Mode driven by Slack's own client (@slack/socket-mode): what it needs from the emulator is what it needs
 * from Slack (apps.connections.open, hello, envelopes, acks, disconnect messages).
 */
const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()?.();
});

type SlackEvent = {
  ack: (response?: Record<string, unknown>) => Promise<void>;
  envelope_id: string;
  type: string;
  body: { event_id?: string; event?: { type: string }; type?: string };
  retry_num?: number;
  retry_reason?: string;
  accepts_response_payload?: boolean;
};

async function setup(socketMode: NonNullable<Parameters<typeof emulator>[0]>['socketMode'] = {}) {
  const emu: Emu = await emulator({
    socketMode: { ackTimeoutMs: 300, retryDelaysMs: [50, 100, 150], disconnectGraceMs: 300, ...socketMode },
  });
  cleanup.push(() => emu.close());
  return emu;
}

/** The official client, reconnecting quickly (it waits clientPingTimeout before a reconnect). */
function client(emu: Emu, onEvent: (e: SlackEvent) => void | Promise<void>) {
  const c = new SocketModeClient({
    appToken: emu.app.appToken,
    logLevel: LogLevel.ERROR,
    clientPingTimeout: 300,
    clientOptions: { slackApiUrl: emu.apiUrl },
  });
  c.on('slack_event', (e: SlackEvent) => void onEvent(e));
  cleanup.push(() => c.disconnect().catch(() => undefined));
  return c;
}

describe('Socket Mode', () => {
  it('apps.connections.open takes only the app-level token; a connection opens with hello', async () => {
    const emu = await setup();
    const install = emu.install();
    const asBot = new WebClient(install.botToken, { slackApiUrl: emu.apiUrl, retryConfig: { retries: 0 } });
    await expect(asBot.apps.connections.open()).rejects.toMatchObject({
      data: { ok: false, error: 'not_allowed_token_type' },
    });
    const wrong = new WebClient('xapp-1-A0FLYWHEEL1-1-nope', {
      slackApiUrl: emu.apiUrl,
      retryConfig: { retries: 0 },
    });
    await expect(wrong.apps.connections.open()).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
    const right = new WebClient(emu.app.appToken, { slackApiUrl: emu.apiUrl });
    const opened = await right.apps.connections.open();
    expect(opened.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=\w+&app_id=A0FLYWHEEL1$/);

    const hello = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const ws = new WebSocket(opened.url as string);
      ws.onmessage = (m: { data: unknown }) => {
        resolve(JSON.parse(String(m.data)) as Record<string, unknown>);
        ws.close();
      };
      ws.onerror = () => reject(new Error('no connection'));
    });
    expect(hello).toMatchObject({
      type: 'hello',
      num_connections: 1,
      debug_info: { host: expect.any(String), approximate_connection_time: expect.any(Number) },
      connection_info: { app_id: 'A0FLYWHEEL1' },
    });
    // A ticket opens one connection only.
    const again = await new Promise<string>((resolve) => {
      const ws = new WebSocket(opened.url as string);
      ws.onopen = () => resolve('open');
      ws.onerror = () => resolve('refused');
    });
    expect(again).toBe('refused');

    const c = client(emu, () => undefined);
    await c.start();
    expect(emu.socketMode.enabled()).toBe(true);
    expect(emu.socketMode.connections()).toHaveLength(1);
  });

  it('events arrive as events_api envelopes and are delivered once acknowledged; none goes to HTTP', async () => {
    const emu = await setup();
    emu.install();
    const got: SlackEvent[] = [];
    const c = client(emu, async (e) => {
      got.push(e);
      await e.ack();
    });
    await c.start();
    const team = emu.team();
    const joined = [team.addMember({ realName: 'Sam Socket' }), team.addMember({ realName: 'Wes Socket' })];
    await emu.eventsIdle();
    expect(got.map((e) => [e.type, e.body.event?.type, e.retry_num, e.accepts_response_payload])).toEqual([
      ['events_api', 'team_join', 0, false],
      ['events_api', 'team_join', 0, false],
    ]);
    expect(got[0]?.body).toMatchObject({
      type: 'event_callback',
      team_id: team.id,
      event: { type: 'team_join', user: { id: joined[0]?.id } },
    });
    expect(emu.deliveries().map((d) => [d.transport, d.state, d.attempts.length])).toEqual([
      ['socket', 'delivered', 1],
      ['socket', 'delivered', 1],
    ]);
    expect(emu.transports()).toMatchObject({
      http: { eventPosts: 0, interactions: 0 },
      socket: { events: 2, envelopes: 2 },
    });
  });

  it("an interactive envelope's ack payload is the app's answer (response_action errors keeps the modal open)", async () => {
    const emu = await setup();
    emu.install();
    const c = client(emu, async (e) => {
      if (e.type !== 'interactive') return e.ack();
      expect(e.accepts_response_payload).toBe(true);
      await e.ack({ response_action: 'errors', errors: { name: 'Say more' } });
    });
    await c.start();
    const team = emu.team();
    const user = team.ws.members[3]?.id as string;
    const view = emu.interactivity.openView(team.id, user, {
      type: 'modal',
      callback_id: 'form',
      title: { type: 'plain_text', text: 'Form' },
      blocks: [
        {
          type: 'input',
          block_id: 'name',
          label: { type: 'plain_text', text: 'Name' },
          element: { type: 'plain_text_input', action_id: 'v' },
        },
      ],
    });
    const result = await emu.interactivity.submitView(user, String(view.id), {
      name: { v: { type: 'plain_text_input', value: 'x' } },
    });
    expect(result).toEqual({
      status: 200,
      body: { response_action: 'errors', errors: { name: 'Say more' } },
    });
    expect(emu.interactivity.surfaces(user).view?.id).toBe(view.id);
    expect(emu.transports()).toMatchObject({ http: { interactions: 0 }, socket: { interactions: 1 } });
  });

  it('refresh_requested: the client reconnects and no event is lost', async () => {
    const emu = await setup();
    emu.install();
    const ids = new Set<string>();
    const c = client(emu, async (e) => {
      if (e.body.event_id) ids.add(e.body.event_id);
      await e.ack();
    });
    await c.start();
    const team = emu.team();
    const made: string[] = [];
    const burst = (n: number) => {
      for (let i = 0; i < n; i++) made.push(team.addMember({ realName: `Member ${made.length}` }).id);
    };
    burst(20);
    expect(emu.socketMode.disconnect('refresh_requested')).toBe(1);
    burst(20); // while the old connection drains and before the new one is open
    await waitFor(() => emu.socketMode.stats().connectionsOpened >= 2 && emu.socketMode.connected(), 10_000);
    burst(20);
    await emu.eventsIdle();
    const delivered = emu.deliveries().filter((d) => d.state === 'delivered');
    expect(delivered).toHaveLength(60);
    expect(ids.size).toBe(60);
    expect(new Set(delivered.map((d) => d.eventId))).toEqual(ids);
    expect(emu.socketMode.connections()).toHaveLength(1);
  });

  it('a warning disconnect is followed too, and a cut connection loses nothing', async () => {
    const emu = await setup();
    emu.install();
    const ids = new Set<string>();
    const c = client(emu, async (e) => {
      if (e.body.event_id) ids.add(e.body.event_id);
      await e.ack();
    });
    await c.start();
    emu.socketMode.disconnect('warning');
    await waitFor(() => emu.socketMode.stats().connectionsOpened >= 2 && emu.socketMode.connected(), 10_000);
    emu.team().addMember({ realName: 'After Warning' });
    emu.socketMode.dropAll();
    emu.team().addMember({ realName: 'After Drop' });
    await emu.eventsIdle();
    expect(ids.size).toBe(2);
    expect(emu.deliveries().every((d) => d.state === 'delivered')).toBe(true);
  });

  it('an envelope not acknowledged in time comes again with retry_attempt + 1 and retry_reason timeout', async () => {
    const emu = await setup();
    emu.install();
    const seen: [string | undefined, number | undefined, string | undefined][] = [];
    const c = client(emu, async (e) => {
      seen.push([e.body.event_id, e.retry_num, e.retry_reason]);
      if ((e.retry_num ?? 0) >= 1) await e.ack(); // the first is left unanswered
    });
    await c.start();
    emu.team().addMember({ realName: 'Slow Ack' });
    await emu.eventsIdle();
    const eventId = emu.deliveries()[0]?.eventId;
    expect(seen).toEqual([
      [eventId, 0, ''],
      [eventId, 1, 'timeout'],
    ]);
    expect(emu.deliveries()[0]).toMatchObject({
      state: 'delivered',
      attempts: [
        { retryNum: 0, reason: 'ack_timeout' },
        { retryNum: 1, status: 200 },
      ],
    });
  });

  it('spreads envelopes over several connections; each event goes to one of them', async () => {
    const emu = await setup();
    emu.install();
    const byClient = [new Set<string>(), new Set<string>()];
    const clients = byClient.map((ids) =>
      client(emu, async (e) => {
        if (e.body.event_id) ids.add(e.body.event_id);
        await e.ack();
      }),
    );
    for (const c of clients) await c.start();
    for (let i = 0; i < 10; i++) emu.team().addMember({ realName: `Spread ${i}` });
    await emu.eventsIdle();
    expect(byClient.map((s) => s.size)).toEqual([5, 5]);
    expect(new Set([...byClient[0]!, ...byClient[1]!]).size).toBe(10);
  });
});
