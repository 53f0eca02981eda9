import { newId } from '../ids.ts';
import { signedHeaders } from '../signing.ts';
import type { Json } from '../types.ts';
import type { SocketMode } from './socket-mode.ts';

export type DeliveryAttempt = {
  retryNum: number;
  reason?: string;
  status?: number;
  ms: number;
  error?: string;
};
export type Delivery = {
  eventId: string;
  teamId: string;
  type: string;
  envelope: Json;
  attempts: DeliveryAttempt[];
  state: 'pending' | 'delivered' | 'failed';
  /** How it went: POSTed to the Request URL, or an envelope on a Socket Mode connection. */
  transport: 'http' | 'socket';
};
export type EventOptions = {
  /** Answer slower than this counts as http_timeout (Slack: 3 s). */
  timeoutMs?: number;
  /** Waits before retry 1, 2, 3 (Slack: about now, 1 min, 5 min). */
  retryDelaysMs?: number[];
};

type Target = {
  url?: string;
  signingSecret: string;
  now: () => number;
  /** Set while the app is in Socket Mode: events go over its connections instead of HTTP. */
  socket?: SocketMode;
};

/** Posts signed JSON to the app's Request URL, retrying the way Slack does; keeps a delivery log. */
export function createDispatcher(target: () => Target, options: EventOptions = {}) {
  const timeoutMs = options.timeoutMs ?? 3000;
  const delays = options.retryDelaysMs ?? [1000, 60_000, 300_000];
  const log: Delivery[] = [];
  const pending = new Set<Promise<void>>();
  const timers = new Map<NodeJS.Timeout, () => void>();
  let closed = false;
  /** Event deliveries that went to the Request URL (each with its retries). */
  let httpSent = 0;

  const post = async (url: string, body: string, extra: Record<string, string>): Promise<DeliveryAttempt> => {
    const { signingSecret, now } = target();
    httpSent++;
    const started = Date.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
          ...signedHeaders(signingSecret, body, Math.floor(now() / 1000)),
          ...extra,
        },
        body,
        signal: controller.signal,
      });
      const text = await res.text();
      const noRetry = res.headers.get('x-slack-no-retry') === '1';
      return {
        retryNum: 0,
        status: res.status,
        ms: Date.now() - started,
        ...(res.ok ? {} : { reason: 'http_error', error: noRetry ? 'no_retry' : text.slice(0, 200) }),
      };
    } catch (err) {
      const aborted = controller.signal.aborted;
      return {
        retryNum: 0,
        ms: Date.now() - started,
        reason: aborted ? 'http_timeout' : 'connection_failed',
        error: String(err),
      };
    } finally {
      clearTimeout(timer);
    }
  };

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.set(t, resolve);
    });

  /** `asRetry`: the first attempt already carries X-Slack-Retry-Num 1 (Slack resending an event it thinks failed). */
  const run = async (d: Delivery, asRetry?: string): Promise<void> => {
    const socket = target().socket;
    if (socket) {
      d.transport = 'socket';
      const acked = await socket.deliverEvent(
        d.envelope,
        (a) =>
          d.attempts.push({
            retryNum: a.retryNum,
            ms: a.ms,
            ...(a.outcome === 'ack'
              ? { status: 200 }
              : { reason: a.outcome === 'timeout' ? 'ack_timeout' : 'connection_closed' }),
          }),
        asRetry ? 1 : 0,
        asRetry ? 'timeout' : undefined,
      );
      d.state = acked ? 'delivered' : 'failed';
      return;
    }
    const body = JSON.stringify(d.envelope);
    let reason: string | undefined = asRetry;
    for (let retry = asRetry ? 1 : 0; retry <= delays.length && !closed; retry++) {
      if (retry > 0 && !(asRetry && retry === 1)) await wait(delays[retry - 1] ?? 0);
      const url = target().url;
      if (!url || closed) break;
      const headers: Record<string, string> =
        retry > 0
          ? { 'x-slack-retry-num': String(retry), 'x-slack-retry-reason': reason ?? 'unknown_error' }
          : {};
      const attempt = await post(url, body, headers);
      attempt.retryNum = retry;
      d.attempts.push(attempt);
      if (attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300) {
        d.state = 'delivered';
        return;
      }
      if (attempt.error === 'no_retry') break;
      reason = attempt.reason;
    }
    d.state = 'failed';
  };

  const track = (p: Promise<void>): void => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };

  /** Queues one envelope; returns its delivery record. */
  const deliver = (teamId: string, envelope: Json, asRetry?: string): Delivery => {
    const d: Delivery = {
      eventId: envelope.event_id as string,
      teamId,
      type: ((envelope.event as Json | undefined)?.type as string | undefined) ?? String(envelope.type),
      envelope,
      attempts: [],
      state: 'pending',
      transport: 'http',
    };
    log.push(d);
    if (log.length > 5000) log.splice(0, log.length - 5000);
    track(run(d, asRetry));
    return d;
  };

  /**
   * Delivers a logged event again, as Slack may: with the same event_id as a retry (X-Slack-Retry-Num 1,
   * reason http_timeout: the app's first answer is taken as lost), or with a new event_id (the same event
   * reported twice). Undefined when the event is not in the log.
   */
  const redeliver = (eventId: string, options: { newEventId?: boolean } = {}): Delivery | undefined => {
    const first = log.find((d) => d.eventId === eventId);
    if (!first) return undefined;
    if (!options.newEventId) return deliver(first.teamId, first.envelope, 'http_timeout');
    return deliver(first.teamId, { ...first.envelope, event_id: newId('Ev', 10) });
  };

  /** Sends url_verification to `url`; true if the app echoed the challenge. */
  const verifyUrl = async (url: string, token: string): Promise<boolean> => {
    const challenge = newId('', 24);
    const body = JSON.stringify({ token, challenge, type: 'url_verification' });
    const { signingSecret, now } = target();
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signedHeaders(signingSecret, body, Math.floor(now() / 1000)),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      return res.ok && text.includes(challenge);
    } catch {
      return false;
    }
  };

  return {
    deliver,
    redeliver,
    verifyUrl,
    log: () => log as readonly Delivery[],
    /** How many event POSTs went to the Request URL, retries included (a Socket Mode app's events never do). */
    httpDeliveries: () => httpSent,
    /** Resolves when every queued delivery (with its retries) has finished. */
    idle: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close: () => {
      closed = true;
      for (const [t, resolve] of timers) {
        clearTimeout(t);
        resolve();
      }
      timers.clear();
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
