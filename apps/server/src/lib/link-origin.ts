import type { IncomingHttpHeaders } from 'node:http';

/*
 * Where links we hand out lead back to: the Slack authorize redirect ('Add to Slack', 'Add as Admin') and the
 * links in e-mails (verification, password reset, invitations). A person who opened Flywheel at
 * http://127.0.0.1:3000 must come back to 127.0.0.1, not to localhost (another origin: the session, kept in
 * that origin's storage, would be lost).
 *
 * PUBLIC_URL, when set, always wins. Without it the request's own origin is used only when it is safe: a
 * loopback address (localhost, 127.0.0.1, ::1: only this machine can be sent there) or an origin listed in
 * ALLOWED_ORIGINS. Anything else (a foreign Host or Origin header) falls back to the default
 * http://localhost:$PORT — never a link built from an arbitrary Host header (host header injection: a reset
 * link pointing at someone else's server would hand them the token).
 */

export type LinkOriginPolicy = {
  /** PUBLIC_URL as configured, or undefined when it is not set. */
  publicUrl: string | undefined;
  /** The default when the request's origin is not allowed (http://localhost:$PORT). */
  fallback: string;
  /** ALLOWED_ORIGINS: further origins links may return to (PUBLIC_URL unset). */
  allowedOrigins: readonly string[];
};

export type RequestLike = { headers: IncomingHttpHeaders; protocol?: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** `https://host:port` of a URL-ish text, or null when it is not an http(s) origin. */
export function originOf(text: string | undefined): string | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}

export function isLoopbackOrigin(origin: string): boolean {
  const host = new URL(origin).hostname.toLowerCase();
  return LOOPBACK.has(host) || host.endsWith('.localhost');
}

/** The origin a browser request says it comes from: Origin, else Referer, else scheme and Host. */
function claimedOrigin(req: RequestLike): string | null {
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const origin = header('origin');
  if (origin && origin !== 'null') return originOf(origin);
  const referer = originOf(header('referer'));
  if (referer) return referer;
  const host = header('host');
  return host ? originOf(`${req.protocol === 'https' ? 'https' : 'http'}://${host}`) : null;
}

/** The origin links for this request return to (no trailing slash). */
export function linkOrigin(req: RequestLike | undefined, policy: LinkOriginPolicy): string {
  if (policy.publicUrl) return policy.publicUrl.replace(/\/$/, '');
  const claimed = req ? claimedOrigin(req) : null;
  if (claimed && (isLoopbackOrigin(claimed) || policy.allowedOrigins.includes(claimed))) return claimed;
  return policy.fallback.replace(/\/$/, '');
}
