import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { mailRepo } from './repo.ts';
import { linksIn } from './service.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Whether a request comes from this machine: its socket is loopback and, if a proxy forwarded it, every
 * forwarded address is loopback too (a reverse proxy on this machine connects from 127.0.0.1 for everyone).
 */
export function fromLoopback(req: FastifyRequest): boolean {
  if (!LOOPBACK.test(req.socket.remoteAddress ?? '')) return false;
  const forwarded = [req.headers['x-forwarded-for'], req.headers['x-real-ip'], req.headers.forwarded]
    .flat()
    .filter((v): v is string => typeof v === 'string');
  if (forwarded.some((v) => /for=/i.test(v))) return false;
  return forwarded
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .every((v) => LOOPBACK.test(v));
}

/**
 * GET /api/dev/outbox: the development outbox, registered only when no SMTP server is configured and
 * the server is not in production, so sign-up and reset links can be opened without a mailbox. It answers
 * only requests from this machine: its links take over accounts.
 */
export function devOutboxRoutes(db: Db) {
  const repo = mailRepo(db);
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/dev/outbox',
      {
        schema: {
          tags: ['dev'],
          querystring: z.object({
            to: z.string().email('to must be an email address').optional(),
            limit: z.coerce.number().int().min(1).max(200).default(20),
          }),
        },
      },
      async (req) => {
        if (!fromLoopback(req))
          throw new AppError(
            'FORBIDDEN',
            403,
            'The development outbox answers only on the machine the server runs on (open it from there)',
          );
        const rows = await repo.listOutbox(req.query.to?.toLowerCase(), undefined, req.query.limit);
        return {
          messages: rows.map((m) => ({
            id: m.id,
            to: m.to,
            subject: m.subject,
            text: m.text,
            links: linksIn(m.text ?? ''),
            createdAt: m.createdAt.toISOString(),
          })),
        };
      },
    );
  };
}
