import crypto from 'node:crypto';
import { AppError } from '../lib/errors.ts';

export const SIGNATURE_WINDOW_SECONDS = 300;

export function slackSignature(signingSecret: string, timestamp: string | number, rawBody: string): string {
  const mac = crypto.createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex');
  return `v0=${mac}`;
}

/**
 * Slack's request signing (https://api.slack.com/authentication/verifying-requests-from-slack): a 5-minute window either side of now, then a
 * constant-time compare of v0=HMAC-SHA256(secret, "v0:{ts}:{raw body}"). Throws 401 otherwise.
 */
export function verifySlackRequest(opts: {
  signingSecret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string;
  nowSeconds?: number;
}): void {
  const { timestamp, signature } = opts;
  if (!timestamp || !signature) {
    throw new AppError(
      'SLACK_SIGNATURE_INVALID',
      401,
      'Missing X-Slack-Signature or X-Slack-Request-Timestamp',
    );
  }
  const ts = Number(timestamp);
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (!Number.isInteger(ts) || Math.abs(now - ts) > SIGNATURE_WINDOW_SECONDS) {
    throw new AppError('SLACK_SIGNATURE_INVALID', 401, 'Stale or invalid X-Slack-Request-Timestamp');
  }
  const expected = Buffer.from(slackSignature(opts.signingSecret, timestamp, opts.rawBody));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
    throw new AppError('SLACK_SIGNATURE_INVALID', 401, 'Invalid X-Slack-Signature');
  }
}
