import type { FastifyInstance } from 'fastify';
import { auditEvents, auditEventsCsv } from '@flywheel/shared/endpoints/audit';
import { sendCsv } from '../../lib/csv-reply.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import type { AuditService } from './service.ts';

export function auditRoutes(deps: { audit: AuditService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(auditEvents, async (req) => {
      const { page, page_size, ...filter } = req.query;
      return deps.audit.list(req.params.teamId, filter, page, page_size);
    });

    route(auditEventsCsv, async (req, reply) =>
      sendCsv(reply, deps.audit.csv(req.params.teamId, req.query), `Audit log ${req.params.teamId}.csv`),
    );
  };
}
