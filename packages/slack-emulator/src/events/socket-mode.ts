import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { newId, randomToken } from '../ids.ts';
import type { Json } from '../types.ts';

/**
 * Socket Mode as Slack documents it: `apps.connections.open` (an app-level token with connections:write) hands
 * out a single-use WebSocket URL; a connection gets a `hello`, then envelopes
 * `{envelope_id, type, payload, accepts_response_payload, retry_attempt, retry_reason}` which the app acknowledges
 * with `{envelope_id, payload?}`. Events are spread over the app's open connections (up to 10); an event not
 * acknowledged in time is sent again with retry_attempt + 1 (retry_reason `timeout`), and one whose connection
 * closed before its acknowledgement is sent again on another connection at once. `disconnect` messages
 * (`warning`, `refresh_requested`) ask the app to reconnect; the connection then takes no new envelopes.
 */
export type SocketModeOptions = {
  /** An envelope not acknowledged within this is taken as lost (Slack: 3 s). */
  ackTimeoutMs?: number;
  /** Waits before event retry 1, 2, 3 after a timeout (a closed connection's envelopes go again at once). */
  retryDelaysMs?: number[];
  /** WebSocket pings from the server (Slack pings every few seconds; the SDK reconnects after 30 s without). */
  pingIntervalMs?: number;
  /** How long a connection told to disconnect may stay open before the emulator closes it. */
  disconnectGraceMs?: number;
  /** Open connections per app (Slack: 10). */
  maxConnections?: number;
};

export type DisconnectReason = 'warning' | 'refresh_requested' | 'link_disabled';
export type EnvelopeType = 'events_api' | 'interactive' | 'slash_commands';
export type Ack = { payload?: Json };
type Outcome = { kind: 'ack'; ack: Ack } | { kind: 'timeout' } | { kind: 'closed' };

type Conn = {
  id: string;
  ws: WebSocket;
  openedAt: number;
  draining: boolean;
  inFlight: Map<string, (o: Outcome) => void>;
  received: number;
};

export type SocketStats = {
  connectionsOpened: number;
  open: number;
  envelopesSent: number;
  acks: number;
  retries: number;
};

export function createSocketMode(appId: string, options: SocketModeOptions = {}) {
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  const delays = options.retryDelaysMs ?? [1000, 60_000, 300_000];
  const graceMs = options.disconnectGraceMs ?? 1000;
  const maxConnections = options.maxConnections ?? 10;
  const tickets = new Map<string, number>();
  const conns = new Map<string, Conn>();
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();
  const stats: SocketStats = { connectionsOpened: 0, open: 0, envelopesSent: 0, acks: 0, retries: 0 };
  let turn = 0;
  let closed = false;
  /** Events waiting for their retry, by envelope id: true once a late acknowledgement came in. */
  const late = new Map<string, boolean>();
  const wss = new WebSocketServer({ noServer: true });

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const usable = (): Conn[] => [...conns.values()].filter((c) => !c.draining && c.ws.readyState === 1);

  /** The next open connection, round robin; waits for one when none is open (events wait, as Slack's do). */
  const nextConnection = async (): Promise<Conn | undefined> => {
    for (;;) {
      if (closed) return undefined;
      const open = usable();
      if (open.length) return open[turn++ % open.length];
      await new Promise<void>((resolve) => waiters.add(resolve));
    }
  };

  const send = (conn: Conn, message: Json): Promise<Outcome> =>
    new Promise<Outcome>((resolve) => {
      const id = String(message.envelope_id);
      const timer = setTimeout(() => finish({ kind: 'timeout' }), ackTimeoutMs);
      function finish(o: Outcome) {
        clearTimeout(timer);
        conn.inFlight.delete(id);
        resolve(o);
      }
      conn.inFlight.set(id, finish);
      stats.envelopesSent++;
      conn.received++;
      conn.ws.send(JSON.stringify(message), (err) => {
        if (err) finish({ kind: 'closed' });
      });
    });

  const closeConn = (conn: Conn): void => {
    if (!conns.delete(conn.id)) return;
    stats.open = conns.size;
    for (const finish of [...conn.inFlight.values()]) finish({ kind: 'closed' });
  };

  const wake = () => {
    for (const w of [...waiters]) w();
    waiters.clear();
  };

  return {
    stats: () => ({ ...stats }),
    /** Connections as the app would see them, newest last. */
    connections: () =>
      [...conns.values()].map((c) => ({
        id: c.id,
        draining: c.draining,
        received: c.received,
        inFlight: c.inFlight.size,
      })),
    /** apps.connections.open: a single-use URL for one WebSocket (valid 30 s); undefined with 10 open already. */
    openUrl(baseUrl: string): string | undefined {
      if (conns.size >= maxConnections) return undefined;
      const ticket = randomToken(32);
      tickets.set(ticket, Date.now() + 30_000);
      return `${baseUrl.replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${appId}`;
    },
    /** The HTTP server's `upgrade` handler for /link/. */
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const ticket = url.searchParams.get('ticket') ?? '';
      const expires = tickets.get(ticket);
      tickets.delete(ticket);
      if (closed || url.pathname !== '/link/' || !expires || expires < Date.now()) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn: Conn = {
          id: newId('WS', 8),
          ws,
          openedAt: Date.now(),
          draining: false,
          inFlight: new Map(),
          received: 0,
        };
        conns.set(conn.id, conn);
        stats.connectionsOpened++;
        stats.open = conns.size;
        ws.on('message', (data, isBinary) => {
          if (isBinary) return;
          let msg: Json;
          try {
            msg = JSON.parse(String(data)) as Json;
          } catch {
            return;
          }
          const id = String(msg.envelope_id ?? '');
          const finish = conn.inFlight.get(id);
          if (!finish) {
            // Too late for its attempt, but before the retry went out: taken, and the retry is not sent.
            if (late.has(id)) {
              late.set(id, true);
              stats.acks++;
            }
            return;
          }
          stats.acks++;
          finish({ kind: 'ack', ack: msg.payload === undefined ? {} : { payload: msg.payload as Json } });
        });
        ws.on('close', () => closeConn(conn));
        ws.on('error', () => closeConn(conn));
        const ping = setInterval(() => {
          if (ws.readyState === 1) ws.ping();
        }, options.pingIntervalMs ?? 5000);
        ping.unref();
        ws.once('close', () => clearInterval(ping));
        ws.send(
          JSON.stringify({
            type: 'hello',
            num_connections: usable().length,
            debug_info: {
              host: 'applink-emulator',
              build_number: 1,
              approximate_connection_time: 18060,
            },
            connection_info: { app_id: appId },
          }),
          () => wake(),
        );
      });
    },
    /** Whether an envelope can be sent now (some connection is open and not draining). */
    connected: () => usable().length > 0,
    /**
     * Delivers one event (an event_callback) until it is acknowledged or its retries are spent; `onAttempt` is
     * told of each attempt. Resolves true when acknowledged.
     */
    async deliverEvent(
      payload: Json,
      onAttempt: (a: { retryNum: number; outcome: Outcome['kind']; ms: number }) => void,
      startAt = 0,
      startReason?: string,
    ): Promise<boolean> {
      const envelopeId = `${randomToken(8)}-${randomToken(4)}-${randomToken(4)}-${randomToken(12)}`;
      let reason = startReason;
      let immediate = startAt > 0;
      for (let retry = startAt; retry <= delays.length && !closed; retry++) {
        if (retry > 0 && !immediate) await new Promise<void>((r) => later(delays[retry - 1] ?? 0, r));
        if (late.get(envelopeId)) {
          late.delete(envelopeId);
          return true;
        }
        const conn = await nextConnection();
        if (!conn) break;
        if (retry > 0) stats.retries++;
        const started = Date.now();
        const o = await send(conn, {
          envelope_id: envelopeId,
          payload,
          type: 'events_api',
          accepts_response_payload: false,
          retry_attempt: retry,
          retry_reason: reason ?? '',
        });
        onAttempt({ retryNum: retry, outcome: o.kind, ms: Date.now() - started });
        if (o.kind === 'ack') {
          late.delete(envelopeId);
          return true;
        }
        // Not acknowledged: sent again (retry_attempt + 1) after the retry's wait, or at once when its
        // connection closed before the acknowledgement came.
        reason = 'timeout';
        immediate = o.kind === 'closed';
        if (o.kind === 'timeout') late.set(envelopeId, false);
      }
      late.delete(envelopeId);
      return false;
    },
    /**
     * Sends an interactive payload (or a slash command) once and waits for its acknowledgement: the ack's
     * payload is the app's answer (e.g. `response_action`). Nothing is retried, as over HTTP.
     */
    async deliverInteractive(
      payload: Json,
      type: EnvelopeType = 'interactive',
    ): Promise<{ ok: true; payload?: Json } | { ok: false; error: string }> {
      // A connection being replaced (a refresh) is waited for, as long as an ack would be.
      const conn = await Promise.race([
        nextConnection(),
        new Promise<undefined>((r) => later(ackTimeoutMs, () => r(undefined))),
      ]);
      if (!conn) return { ok: false, error: 'no socket connection' };
      const accepts =
        type === 'slash_commands' ||
        payload.type === 'view_submission' ||
        payload.type === 'block_suggestion';
      const o = await send(conn, {
        envelope_id: newId('', 36).toLowerCase(),
        payload,
        type,
        accepts_response_payload: accepts,
      });
      if (o.kind === 'ack') return { ok: true, payload: o.ack.payload };
      return { ok: false, error: o.kind === 'timeout' ? 'timeout' : 'connection closed' };
    },
    /**
     * Sends `disconnect` to every open connection (or to one): it takes no new envelopes and is closed after the
     * grace period unless the app closed it first; envelopes still unacknowledged then are sent again elsewhere.
     */
    disconnect(reason: DisconnectReason = 'refresh_requested', connectionId?: string): number {
      let n = 0;
      for (const conn of conns.values()) {
        if (connectionId && conn.id !== connectionId) continue;
        conn.draining = true;
        n++;
        conn.ws.send(
          JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-emulator' } }),
        );
        later(reason === 'warning' ? graceMs * 10 : graceMs, () => {
          if (conn.ws.readyState <= 1) conn.ws.terminate();
          closeConn(conn);
        });
      }
      return n;
    },
    /** Drops every connection at once, as a network failure would (no close handshake). */
    dropAll(): void {
      for (const conn of [...conns.values()]) {
        conn.ws.terminate();
        closeConn(conn);
      }
    },
    close(): void {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const conn of [...conns.values()]) {
        conn.ws.terminate();
        closeConn(conn);
      }
      wake();
      wss.close();
    },
  };
}

export type SocketMode = ReturnType<typeof createSocketMode>;
