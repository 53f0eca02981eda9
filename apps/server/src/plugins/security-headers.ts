import crypto from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy the web app and the API docs (/api/docs) run under without a violation (the
 * end-to-end suite fails on any). Scripts only from this origin; no framing; no plugins. Styles allow
 * 'unsafe-inline' because Mantine writes its CSS variables into a <style> element at run time (scripts,
 * the dangerous half, stay strict). Images may be Slack's avatars (https) and, in the demo, the bundled
 * emulator's on localhost.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http://localhost:*', 'http://127.0.0.1:*'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
} as const;

/** The text of each inline <script> (no src) in a page: what the CSP's hashes are made of. */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
}

/**
 * Security headers on every answer, with @fastify/helmet: CSP above, X-Frame-Options DENY,
 * X-Content-Type-Options nosniff, Referrer-Policy no-referrer, Cross-Origin-Opener/Resource-Policy, and
 * HSTS when the public address is https (on plain http it would only confuse a later https setup).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  opts: { publicUrl: string; inlineScripts?: string[] },
) {
  // The web app's own inline scripts (the boot script in index.html), each allowed by its SHA-256 hash alone:
  // any other inline script, an injected one included, is still refused.
  const hashes = (opts.inlineScripts ?? []).map(
    (s) => `'sha256-${crypto.createHash('sha256').update(s).digest('base64')}'`,
  );
  const directives = Object.fromEntries(
    Object.entries(CONTENT_SECURITY_POLICY).map(([k, v]) => [
      k,
      k === 'script-src' ? [...v, ...hashes] : [...v],
    ]),
  );
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: opts.publicUrl.startsWith('https://')
      ? { maxAge: 31_536_000, includeSubDomains: false }
      : false,
  });
}
