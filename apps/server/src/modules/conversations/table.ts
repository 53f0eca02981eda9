import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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

/**
 * Every message that is a question by the rule (docs/product/questions.md "What is a question": a live top-level
 * channel message with a question's text, from a user, not a bot's or a system line; who the asker is, member or
 * admin, is checked when read) with the time of its first answer: the earliest live reply in its thread or live
 * reaction on it by anyone but the asker (null: none). Kept by the ingestion in the transaction that writes the
 * message, reply or reaction (question-answers.ts); the Questions list and the response times read it.
 */
export const questionAnswers = pgTable(
  'conversation_question_answers',
  {
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    userId: text('user_id').notNull(),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
    firstAnswerAt: timestamp('first_answer_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.channelId, t.ts] }),
    // Response times: a window's questions (the migration makes it carry the columns the statistics read).
    index('conversation_question_answers_posted_idx').on(t.teamId, t.postedAt),
    // The Questions list: a window's unanswered questions only.
    index('conversation_question_answers_unanswered_idx')
      .on(t.teamId, t.postedAt)
      .where(sql`first_answer_at is null`),
  ],
);
