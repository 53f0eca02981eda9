import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditFilterQuery, auditListQuery, auditListResponse } from '@flywheel/shared/audit';
import { sendCsv } from '../../lib/csv-reply.ts';
import {
  type RouteAccess,
  type WorkspaceGuard,
  scopedOptions,
  teamIdParam,
} from '../../plugins/workspace-guard.ts';
import type { AuditService } from './service.ts';

const tags = ['audit'];

/**
 * Who may read the audit log: the one place it is declared (a role rule may later make it Owner-only by
 * declaring `manage` here).
 */
export const AUDIT_READ_ACCESS: RouteAccess = 'read';

export function auditRoutes(deps: { audit: AuditService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard, AUDIT_READ_ACCESS);
    const params = z.object({ teamId: teamIdParam });

    r.get(
      '/audit/:teamId/events',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'The audit log, newest first: who did what, when, on which objects; filters actor (user id), kind, from/to (days, UTC)',
          params,
          querystring: auditListQuery,
          response: { 200: auditListResponse },
        },
      },
      async (req) => {
        const { page, page_size, ...filter } = req.query;
        return deps.audit.list(req.params.teamId, filter, page, page_size);
      },
    );

    r.get(
      '/audit/:teamId/events.csv',
      {
        ...opts,
        schema: {
          tags,
          summary: 'The audit log as CSV (the same filters as the list; every matching row)',
          params,
          querystring: auditFilterQuery,
          produces: ['text/csv'],
        },
      },
      async (req, reply) =>
        sendCsv(reply, deps.audit.csv(req.params.teamId, req.query), `Audit log ${req.params.teamId}.csv`),
    );
  };
}
