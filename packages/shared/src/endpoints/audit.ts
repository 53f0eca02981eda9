import { z } from 'zod';
import { auditFilterQuery, auditListQuery, auditListResponse } from '../audit.ts';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';

/*
 * The audit log and its CSV (apps/server/src/modules/audit/routes.ts). Who may read it is declared here, in one
 * place: a role rule may later make it Owner-only by declaring `manage`.
 */

const tags = ['audit'] as const;
const params = z.object({ teamId: teamIdParam });

export const auditEvents = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/audit/:teamId/events',
  scope: 'read',
  tags,
  summary:
    'The audit log, newest first: who did what, when, on which objects; filters actor (user id), kind, from/to (days, UTC)',
  params,
  query: auditListQuery,
  response: { 200: auditListResponse },
});

export const auditEventsCsv = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/audit/:teamId/events.csv',
  scope: 'read',
  tags,
  summary: 'The audit log as CSV (the same filters as the list; every matching row)',
  params,
  query: auditFilterQuery,
  produces: ['text/csv'],
});
