import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { mailRepo } from './repo.ts';
import { linksIn } from './service.ts';

/**
 * GET /api/dev/outbox: the development outbox, registered only when no SMTP server is configured and
 * the server is not in production, so sign-up and reset links can be opened without a mailbox.
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
