import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The audit log (issue 36): append-only, one row per successful call that acts on or manages a workspace and one
 * per login. Rows are only ever inserted, and deleted by age (AUDIT_RETENTION_DAYS); nothing updates them.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** 'user' (a signed-in person) or 'api_key' (a key's call; the user is the key's creator). */
    actorKind: text('actor_kind').$type<'user' | 'api_key'>().notNull(),
    actorUserId: text('actor_user_id'),
    /** The person's e-mail at the time. */
    actorEmail: text('actor_email'),
    /** The API key's name on a key's call. */
    actorLabel: text('actor_label'),
    /** A stable kind: 'send.message', 'poll.create', 'tag.add', 'auth.login'... (audit/actions.ts). */
    action: text('action').notNull(),
    method: text('method').notNull(),
    /** The route's template (/api/v0/poll/createpoll), never the raw URL. */
    route: text('route').notNull(),
    /** Ids of what was acted on (receipt_id, poll_id, workflow_id...) and counts (members). */
    objects: jsonb('objects').$type<Record<string, string | number>>().notNull().default({}),
    status: integer('status').notNull(),
    summary: text('summary').notNull(),
  },
  (t) => [
    index('audit_events_team_at_idx').on(t.teamId, t.at),
    index('audit_events_at_idx').on(t.at),
    check('audit_events_actor_kind_check', sql`${t.actorKind} in ('user', 'api_key')`),
  ],
);
