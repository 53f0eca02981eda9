import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Mentions answered from Flywheel (a reply or a reaction through the Mentions panel): the panel shows 'Seen'
 * on them instead of the reply button. One row per message, the first answer kept.
 */
export const mentionsSeen = pgTable(
  'conversation_mentions_seen',
  {
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    how: text('how', { enum: ['reply', 'reaction'] }).notNull(),
    /** The Flywheel user who answered. */
    seenBy: text('seen_by'),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.channelId, t.ts] })],
);

/**
 * Pinned messages, as Slack's pin_added / pin_removed events report them (whoever pinned, in Slack or from
 * Flywheel): the Posts cards' pin/unpin toggle and a thread's is_pinned.
 */
export const messagePins = pgTable(
  'conversation_pins',
  {
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    pinnedBy: text('pinned_by'),
    /** The event time of the latest pin or unpin applied: an older event never overrides a newer one. */
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
    pinned: boolean('pinned').notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.channelId, t.ts] })],
);

/**
 * Questions an admin marked handled (Actions > Questions' 'Mark handled'): they leave the unanswered list for
 * every admin of the workspace. One row per message, the first mark kept.
 */
export const questionsHandled = pgTable(
  'conversation_questions_handled',
  {
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    /** The Flywheel user who marked it. */
    handledBy: text('handled_by'),
    handledAt: timestamp('handled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.channelId, t.ts] })],
);
