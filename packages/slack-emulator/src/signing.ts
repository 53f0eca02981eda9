import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack request signature: v0=hex(HMAC-SHA256(secret, "v0:<timestamp>:<raw body>")). */
export function signRequest(
  signingSecret: string,
  timestamp: number | string,
  body: string | Buffer,
): string {
  const hmac = createHmac('sha256', signingSecret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(body);
  return `v0=${hmac.digest('hex')}`;
}

/** Verifies a signature as Slack's receivers do (5-minute window, constant-time compare). */
export function verifySignature(input: {
  signingSecret: string;
  timestamp: number | string;
  signature: string;
  body: string | Buffer;
  nowSeconds?: number;
}): boolean {
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(input.timestamp)) > 300) return false;
  const expected = Buffer.from(signRequest(input.signingSecret, input.timestamp, input.body));
  const given = Buffer.from(input.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Headers for an outbound signed POST. */
export function signedHeaders(
  signingSecret: string,
  body: string,
  nowSeconds: number,
): Record<string, string> {
  return {
    'x-slack-request-timestamp': String(nowSeconds),
    'x-slack-signature': signRequest(signingSecret, nowSeconds, body),
  };
}
