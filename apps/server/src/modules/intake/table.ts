import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Inbox of Events API deliveries: one row per event_id (Slack's retries collapse on the key), drained
 * in batches by workers with SKIP LOCKED.
 */
export const slackInbox = pgTable(
  'slack_inbox',
  {
    eventId: text('event_id').primaryKey(),
    teamId: text('team_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
  },
  (t) => [
    index('slack_inbox_pending_idx')
      .on(t.receivedAt)
      .where(sql`${t.processedAt} is null`),
  ],
);
