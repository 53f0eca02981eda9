import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { WEBHOOK_HEADERS } from '@flywheel/shared/webhooks';
import { guardedLookup, isPrivateAddress, RefusedTargetError } from './target.ts';

/** The signature of a body: HMAC-SHA256 with the subscription's secret over `${timestamp}.${body}`, hex. */
export const signature = (secret: string, timestamp: string, body: string): string =>
  crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export type Attempt = { ok: boolean; status: number | null; error: string | null; durationMs: number };

/**
 * One POST of a delivery: signed, within `timeoutMs` from start to the answer's end, redirects not followed
 * (a 3xx is a failure), the connection only to addresses that pass the target rules (see target.ts). A 2xx is
 * delivered; anything else, or no answer, is a failed attempt.
 */
export async function postDelivery(o: {
  url: string;
  body: string;
  secret: string;
  eventId: string;
  deliveryId: number;
  timeoutMs: number;
  allowPrivate: boolean;
  now?: () => number;
}): Promise<Attempt> {
  const started = Date.now();
  const done = (r: Omit<Attempt, 'durationMs'>): Attempt => ({ ...r, durationMs: Date.now() - started });
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    return done({ ok: false, status: null, error: 'invalid url' });
  }
  if (url.protocol !== 'https:' && !(o.allowPrivate && url.protocol === 'http:'))
    return done({ ok: false, status: null, error: 'refused: url must be https' });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!o.allowPrivate && net.isIP(host) !== 0 && isPrivateAddress(host))
    return done({ ok: false, status: null, error: `refused: ${host} is a private address` });
  const timestamp = String(Math.floor((o.now?.() ?? Date.now()) / 1000));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Flywheel-Webhooks/1',
    'content-length': String(Buffer.byteLength(o.body)),
    [WEBHOOK_HEADERS.id]: o.eventId,
    [WEBHOOK_HEADERS.delivery]: String(o.deliveryId),
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.signature]: `v1=${signature(o.secret, timestamp, o.body)}`,
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (r: Omit<Attempt, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = client.request(
      url,
      { method: 'POST', headers, lookup: guardedLookup(o.allowPrivate) as never, agent: false },
      (res) => {
        const status = res.statusCode ?? 0;
        // The answer's body is read (up to a bound) and dropped: the status is the answer.
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > 64 * 1024) res.destroy();
        });
        const end = () =>
          finish(
            status >= 200 && status < 300
              ? { ok: true, status, error: null }
              : {
                  ok: false,
                  status,
                  error:
                    status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`,
                },
          );
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, error: `timed out after ${o.timeoutMs} ms` });
      req.destroy();
    }, o.timeoutMs);
    req.on('error', (err) =>
      finish({
        ok: false,
        status: null,
        error: err instanceof RefusedTargetError ? `refused: ${err.message}` : err.message || String(err),
      }),
    );
    req.end(o.body);
  });
}
