import { z } from 'zod';
import { calendarDay, safeText } from './input.ts';

/*
 * The audit log (issue 36): one row per successful call that acts on or manages a workspace, and one per login.
 * GET /api/v0/audit/:teamId/events lists them, GET /api/v0/audit/:teamId/events.csv exports them.
 */

export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;

/** Who acted: a signed-in person, or an API key (its creator is `actor_user_id`). */
export const auditActorKind = z.enum(['user', 'api_key']);
export type AuditActorKind = z.infer<typeof auditActorKind>;

const auditFilterFields = z.object({
  actor: safeText('actor', 64).optional(),
  kind: safeText('kind', 64).optional(),
  from: calendarDay('from').optional(),
  to: calendarDay('to').optional(),
});
const rangeInOrder = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
const RANGE_ORDER = { message: 'The start date must not be after the end date', path: ['from'] };

/** The filters of the list and the CSV: person (user id), action kind, days (YYYY-MM-DD, UTC, both included). */
export const auditFilterQuery = auditFilterFields.refine(rangeInOrder, RANGE_ORDER);
export type AuditFilter = z.infer<typeof auditFilterQuery>;

export const auditListQuery = auditFilterFields
  .extend({
    page: z.coerce
      .number({ error: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page must be at least 1')
      .max(100_000, 'page must be at most 100000')
      .default(1),
    page_size: z.coerce
      .number({ error: 'page_size must be a number' })
      .int('page_size must be a whole number')
      .min(1, 'page_size must be at least 1')
      .max(100, 'page_size must be at most 100')
      .default(50),
  })
  .refine(rangeInOrder, RANGE_ORDER);
export type AuditListQuery = z.input<typeof auditListQuery>;

/** What an action was done to: ids by name (receipt_id, poll_id, workflow_id...) and counts (members). */
export const auditObjects = z.record(z.string(), z.union([z.string(), z.number()]));
export type AuditObjects = z.infer<typeof auditObjects>;

export const auditEventSchema = z.object({
  id: z.number(),
  at: z.string(),
  actor_kind: auditActorKind,
  actor_user_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  /** The API key's name on a key's call; null for a person. */
  actor_label: z.string().nullable(),
  action: z.string(),
  method: z.string(),
  route: z.string(),
  objects: auditObjects,
  status: z.number(),
  summary: z.string(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditListResponse = z.object({
  data: z.array(auditEventSchema),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
  /** Everyone and every kind in this workspace's log, for the filters. */
  people: z.array(z.object({ user_id: z.string(), email: z.string() })),
  kinds: z.array(z.string()),
});
export type AuditListResponse = z.infer<typeof auditListResponse>;

/** The CSV's columns, in order. */
export const AUDIT_CSV_HEADERS = [
  'Time (UTC)',
  'Actor',
  'Actor kind',
  'API key',
  'Action',
  'Method',
  'Route',
  'Objects',
  'Status',
  'Summary',
] as const;

/** Objects as one short text: `receipt_id=12 · members=40`. */
export const auditObjectsText = (objects: AuditObjects): string =>
  Object.entries(objects)
    .map(([k, v]) => `${k}=${v}`)
    .join(' · ');
