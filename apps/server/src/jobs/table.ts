import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Due work whose planning has begun and not yet committed (lib/plan-due.ts; workflows' time triggers and activity
 * looks, workflows/service.ts planTriggers): one row per run (its kind and key),
 * written in a transaction of its own before the run is planned and removed in the planning's transaction. A row
 * left behind is a planning that never finished (the process was killed or stopped answering): the next attempt
 * is the last, and after that the run is recorded as skipped, so a restarted process never wedges on it again.
 */
export const dueAttempts = pgTable(
  'due_attempts',
  {
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    attempts: integer('attempts').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);
