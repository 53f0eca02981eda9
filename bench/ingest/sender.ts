/**
 * The "Slack" side of the events benchmark, run as a child process of events.ts: sends a realistic mix of
 * signed Events API envelopes to POST /slack/events over loopback with bounded concurrency, and keeps an
 * exact model of what the server must end up with.
 *
 * Ordering: an event that depends on another (a reply on its parent, a reaction on its message, a removal
 * on its add, an edit or delete on its message) is only sent after the server acknowledged the one it
 * depends on, and a message is only deleted when nothing about it is in flight. Slack gives no stronger
 * guarantee, and it makes the expected totals exact whatever order concurrent deliveries are stored in.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { signedHeaders } from '@flywheel/slack-emulator';
import { RawConnection } from './raw-http.ts';

export type SenderInput = {
  url: string;
  signingSecret: string;
  teamId: string;
  appId: string;
  botUserId: string;
  members: string[];
  channels: string[];
  events: number;
  concurrency: number;
  seed: number;
  timeoutMs: number;
  /** 'raw': the minimal keep-alive HTTP/1.1 client of raw-http.ts (default); 'node': node:http with an agent. */
  client?: 'raw' | 'node';
};

export type SenderResult = {
  sent: number;
  unique: number;
  duplicates: number;
  non200: number;
  firstAt: number;
  lastAt: number;
  /** CPU the sender itself used from its first send to its last answer (ms, user + system). */
  cpuMs: number;
  latencyMs: { p50: number; p99: number; max: number };
  mix: Record<string, number>;
  expected: {
    messages: number;
    replies: number;
    reactions: number;
    liveMessageRows: number;
    byChannel: Record<string, { messages: number; replies: number; reactions: number }>;
  };
};

type Msg = {
  ch: string;
  ts: string;
  user: string;
  reply: boolean;
  acked: boolean;
  refs: number;
  deleted: boolean;
};
type ReactionState = 'adding' | 'present' | 'removing';

const REACTIONS = [
  'thumbsup',
  'heart',
  'tada',
  'eyes',
  'joy',
  'rocket',
  'pray',
  'fire',
  '100',
  'white_check_mark',
];
const WORDS =
  'the team shipped a new build today and the release notes are in the thread please review before friday thanks everyone for the help with onboarding'.split(
    ' ',
  );

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export async function runSender(input: SenderInput): Promise<SenderResult> {
  const rand = rng(input.seed);
  const pick = <T>(a: T[]): T => a[Math.floor(rand() * a.length)]!;
  const url = new URL('/slack/events', input.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: input.concurrency });

  const baseSec = Math.floor(Date.now() / 1000) - 60;
  let seq = 0;
  let tsSeq = 0;
  const nextTs = () => {
    const n = tsSeq++;
    return `${baseSec + Math.floor(n / 1_000_000)}.${String(n % 1_000_000).padStart(6, '0')}`;
  };
  const nowTs = () => `${(Date.now() / 1000).toFixed(6)}`;
  const text = () => Array.from({ length: 6 + Math.floor(rand() * 14) }, () => pick(WORDS)).join(' ');

  const msgs: Msg[] = [];
  const parents: Msg[] = [];
  const reactions = new Map<string, { state: ReactionState; msg: Msg }>();
  /** Keys of reactions acknowledged as added, candidates for removal. */
  const presentKeys: string[] = [];
  const sentEnvelopes: string[] = [];
  const mix: Record<string, number> = {};

  const envelope = (event: Record<string, unknown>) => ({
    token: 'bench-verification-token',
    team_id: input.teamId,
    context_team_id: input.teamId,
    context_enterprise_id: null,
    api_app_id: input.appId,
    event,
    type: 'event_callback',
    event_id: `EvZZBENCH${String(seq++).padStart(10, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: input.teamId,
        user_id: input.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${Buffer.from(JSON.stringify({ et: event.type, tid: input.teamId, aid: input.appId })).toString('base64url')}`,
  });
  const richText = (t: string) => [
    {
      type: 'rich_text',
      block_id: crypto.randomBytes(3).toString('hex'),
      elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: t }] }],
    },
  ];

  /** Picks an acknowledged, live message (optionally top-level only) with a few tries; undefined if none. */
  const target = (topLevel: boolean, idle = false): Msg | undefined => {
    const pool = topLevel ? parents : msgs;
    for (let i = 0; i < 8 && pool.length; i++) {
      // Mostly recent messages, as in a live workspace.
      const idx = pool.length - 1 - Math.floor(Math.pow(rand(), 3) * pool.length);
      const m = pool[idx]!;
      if (m.acked && !m.deleted && (!idle || m.refs === 0)) return m;
    }
    return undefined;
  };

  type Planned = { body: string; retry: boolean; done?: () => void };

  /** Plans the next delivery from the current model; `done` runs once the server acknowledged it. */
  function plan(): Planned {
    const r = rand();
    const count = (k: string) => (mix[k] = (mix[k] ?? 0) + 1);
    const planned = (event: Record<string, unknown>, kind: string, done?: () => void): Planned => {
      count(kind);
      const body = JSON.stringify(envelope(event));
      if (sentEnvelopes.length < 5000 || rand() < 0.05) sentEnvelopes.push(body);
      return { body, retry: false, done };
    };

    if (r < 0.01 && sentEnvelopes.length > 100) {
      count('retried duplicate');
      return { body: pick(sentEnvelopes), retry: true };
    }
    if (r < 0.2 && parents.length > 20) {
      const parent = target(true);
      if (parent) {
        const ts = nextTs();
        const t = text();
        const m: Msg = {
          ch: parent.ch,
          ts,
          user: pick(input.members),
          reply: true,
          acked: false,
          refs: 0,
          deleted: false,
        };
        parent.refs++;
        msgs.push(m);
        return planned(
          {
            type: 'message',
            channel: m.ch,
            user: m.user,
            text: t,
            blocks: richText(t),
            ts,
            thread_ts: parent.ts,
            parent_user_id: parent.user,
            client_msg_id: crypto.randomUUID(),
            team: input.teamId,
            event_ts: ts,
            channel_type: 'channel',
          },
          'thread reply',
          () => {
            m.acked = true;
            parent.refs--;
          },
        );
      }
    }
    if (r < 0.4 && msgs.length > 20) {
      const m = target(false);
      const user = pick(input.members);
      const name = pick(REACTIONS);
      const key = m && `${m.ch}|${m.ts}|${user}|${name}`;
      if (m && key && !reactions.has(key)) {
        const rec = { state: 'adding' as ReactionState, msg: m };
        reactions.set(key, rec);
        m.refs++;
        return planned(
          {
            type: 'reaction_added',
            user,
            reaction: name,
            item_user: m.user,
            item: { type: 'message', channel: m.ch, ts: m.ts },
            event_ts: nowTs(),
          },
          'reaction added',
          () => {
            rec.state = 'present';
            presentKeys.push(key);
            m.refs--;
          },
        );
      }
    }
    if (r < 0.42 && presentKeys.length > 50) {
      for (let i = 0; i < 8; i++) {
        const idx = Math.floor(rand() * presentKeys.length);
        const key = presentKeys[idx]!;
        const rec = reactions.get(key)!;
        presentKeys[idx] = presentKeys[presentKeys.length - 1]!;
        presentKeys.pop();
        if (rec.msg.deleted) continue;
        const [, , user, name] = key.split('|');
        rec.state = 'removing';
        rec.msg.refs++;
        return planned(
          {
            type: 'reaction_removed',
            user,
            reaction: name,
            item_user: rec.msg.user,
            item: { type: 'message', channel: rec.msg.ch, ts: rec.msg.ts },
            event_ts: nowTs(),
          },
          'reaction removed',
          () => {
            reactions.delete(key);
            rec.msg.refs--;
          },
        );
      }
    }
    if (r < 0.435 && msgs.length > 20) {
      const m = target(false);
      if (m) {
        m.refs++;
        const t = `${text()} (edited)`;
        const ets = nowTs();
        return planned(
          {
            type: 'message',
            subtype: 'message_changed',
            hidden: true,
            channel: m.ch,
            message: {
              type: 'message',
              user: m.user,
              text: t,
              blocks: richText(t),
              ts: m.ts,
              edited: { user: m.user, ts: ets },
            },
            previous_message: { type: 'message', user: m.user, text: '…', ts: m.ts },
            ts: ets,
            event_ts: ets,
            channel_type: 'channel',
          },
          'edit',
          () => m.refs--,
        );
      }
    }
    if (r < 0.445 && msgs.length > 200) {
      const m = target(false, true);
      if (m) {
        m.deleted = true;
        const ets = nowTs();
        return planned(
          {
            type: 'message',
            subtype: 'message_deleted',
            hidden: true,
            channel: m.ch,
            deleted_ts: m.ts,
            previous_message: { type: 'message', user: m.user, text: '…', ts: m.ts },
            ts: ets,
            event_ts: ets,
            channel_type: 'channel',
          },
          'delete',
        );
      }
    }
    if (r < 0.448) {
      return planned(
        {
          type: 'member_joined_channel',
          user: pick(input.members),
          channel: pick(input.channels),
          channel_type: 'C',
          team: input.teamId,
          event_ts: nowTs(),
        },
        'channel join',
      );
    }
    if (r < 0.45) {
      const id = pick(input.members);
      return planned(
        {
          type: 'user_change',
          user: {
            id,
            team_id: input.teamId,
            name: id.toLowerCase(),
            deleted: false,
            real_name: `Member ${id}`,
            tz: 'Europe/Berlin',
            is_admin: false,
            is_owner: false,
            is_bot: false,
            updated: Math.floor(Date.now() / 1000),
            profile: {
              real_name: `Member ${id}`,
              display_name: `m-${id.slice(-4)}`,
              email: `${id.toLowerCase()}@example.com`,
            },
          },
          cache_ts: Math.floor(Date.now() / 1000),
          event_ts: nowTs(),
        },
        'user_change',
      );
    }
    // New top-level message (~55% of the mix, plus whatever the branches above could not place).
    const ts = nextTs();
    const t = text();
    const m: Msg = {
      ch: pick(input.channels),
      ts,
      user: pick(input.members),
      reply: false,
      acked: false,
      refs: 0,
      deleted: false,
    };
    msgs.push(m);
    parents.push(m);
    return planned(
      {
        type: 'message',
        channel: m.ch,
        user: m.user,
        text: t,
        blocks: richText(t),
        ts,
        client_msg_id: crypto.randomUUID(),
        team: input.teamId,
        event_ts: ts,
        channel_type: 'channel',
      },
      'new message',
      () => {
        m.acked = true;
      },
    );
  }

  const latencies: number[] = [];
  let non200 = 0;
  let duplicates = 0;
  /** Slack's headers for one delivery, signed at the moment it is sent. */
  const headersOf = (p: Planned): Record<string, string | number> => {
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...signedHeaders(input.signingSecret, p.body, Math.floor(Date.now() / 1000)),
    };
    if (p.retry) {
      headers['x-slack-retry-num'] = 1;
      headers['x-slack-retry-reason'] = 'http_timeout';
    }
    return headers;
  };
  const nodeSend = (p: Planned) =>
    new Promise<number>((resolve, reject) => {
      const headers = { ...headersOf(p), 'content-length': Buffer.byteLength(p.body) };
      const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(p.body);
    });
  const connections: RawConnection[] = [];
  const sender = (): ((p: Planned) => Promise<number>) => {
    if (input.client === 'node') return nodeSend;
    const conn = new RawConnection(url.hostname, Number(url.port));
    connections.push(conn);
    return (p) => conn.request({ path: url.pathname, headers: headersOf(p), body: p.body });
  };

  let firstDeliveriesAnswered = 0;
  const progress = setInterval(() => process.send?.({ stored: firstDeliveriesAnswered }), 500);
  const deadline = Date.now() + input.timeoutMs;
  const cpu0 = process.cpuUsage();
  const firstAt = Date.now();
  let sent = 0;
  async function worker() {
    const send = sender();
    while (sent < input.events && Date.now() < deadline) {
      sent++;
      const p = plan();
      if (p.retry) duplicates++;
      const t0 = performance.now();
      const status = await send(p);
      latencies.push(performance.now() - t0);
      if (status !== 200) non200++;
      else {
        if (!p.retry) firstDeliveriesAnswered++;
        p.done?.();
      }
    }
  }
  await Promise.all(Array.from({ length: input.concurrency }, worker));
  const lastAt = Date.now();
  const cpu = process.cpuUsage(cpu0);
  clearInterval(progress);
  agent.destroy();
  for (const c of connections) c.close();

  const byChannel: SenderResult['expected']['byChannel'] = {};
  const ch = (c: string) => (byChannel[c] ??= { messages: 0, replies: 0, reactions: 0 });
  let liveMessageRows = 0;
  for (const m of msgs) {
    if (m.deleted) continue;
    liveMessageRows++;
    if (m.reply) ch(m.ch).replies++;
    else ch(m.ch).messages++;
  }
  for (const rec of reactions.values())
    if (rec.state === 'present' && !rec.msg.deleted) ch(rec.msg.ch).reactions++;
  const sum = (k: 'messages' | 'replies' | 'reactions') =>
    Object.values(byChannel).reduce((n, c) => n + c[k], 0);
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    +latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
  return {
    sent,
    unique: seq,
    duplicates,
    non200,
    firstAt,
    lastAt,
    cpuMs: (cpu.user + cpu.system) / 1000,
    latencyMs: { p50: q(0.5), p99: q(0.99), max: q(1) },
    mix,
    expected: {
      messages: sum('messages'),
      replies: sum('replies'),
      reactions: sum('reactions'),
      liveMessageRows,
      byChannel,
    },
  };
}

// Run as a child process: says it is ready (loaded), then takes its input on IPC and answers on IPC.
if (process.send) {
  process.send({ ready: true });
  process.once('message', (input: SenderInput) => {
    runSender(input).then(
      (result) => process.send!({ ok: true, result }, () => process.exit(0)),
      (err: unknown) =>
        process.send!({ ok: false, error: String((err as Error)?.stack ?? err) }, () => process.exit(1)),
    );
  });
}
