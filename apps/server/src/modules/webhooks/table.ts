import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, boolean } from 'drizzle-orm/pg-core';

/**
 * An outbound webhook subscription: a target URL, the event types it wants, its signing secret (sealed with the
 * secrets key like the bot token: never logged, shown once at creation) and whether it is paused.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** A worker delivers this subscription's queue until then (one at a time, so in order). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_subscriptions_team_idx').on(t.teamId, t.id)],
);

/**
 * An event as emitted (the outbox): its id is the body's `id` and the de-duplication header. `dedupeKey` makes a
 * second emit of the same happening (an event redelivered by Slack) a no-op.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_events_dedupe_idx').on(t.teamId, t.dedupeKey),
    index('webhook_events_team_idx').on(t.teamId, t.createdAt),
  ],
);

/**
 * One event to one subscription: delivered in id order per subscription, retried with backoff for up to a day.
 * `replayOf`: the delivery this one replays.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    responseCode: integer('response_code'),
    lastError: text('last_error'),
    /** The last attempt's time from request to answer. */
    durationMs: integer('duration_ms'),
    replayOf: integer('replay_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_queue_idx')
      .on(t.subscriptionId, t.id)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_log_idx').on(t.subscriptionId, t.id),
  ],
);
