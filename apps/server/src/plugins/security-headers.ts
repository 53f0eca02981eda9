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

/**
 * Security headers on every answer, with @fastify/helmet: CSP above, X-Frame-Options DENY,
 * X-Content-Type-Options nosniff, Referrer-Policy no-referrer, Cross-Origin-Opener/Resource-Policy, and
 * HSTS when the public address is https (on plain http it would only confuse a later https setup).
 */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { publicUrl: string }) {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: Object.fromEntries(Object.entries(CONTENT_SECURITY_POLICY).map(([k, v]) => [k, [...v]])),
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: opts.publicUrl.startsWith('https://')
      ? { maxAge: 31_536_000, includeSubDomains: false }
      : false,
  });
}
