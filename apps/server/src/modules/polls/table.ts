import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** An option as created: the emoji (character and Slack name) that votes for it, and its text. */
export type PollOptionRecord = { emoji: string; emoji_code: string; value: string };
/** A button poll's settings (null for emoji polls). */
export type PollBallot = {
  anonymous: boolean;
  multiple: boolean;
  max_choices: number | null;
  allow_add: boolean;
  results: 'live' | 'closed';
};

/**
 * A poll: a question with up to five emoji options, posted in channels through the delivery
 * engine (its receipt), open until `expires_at`. Its life: scheduled (no receipt yet) -> posted (receipt) ->
 * closed (`closed_at`, claimed once by whichever worker gets there first) -> final results shown (`final_at`).
 * A deleted poll (`deleted_at`) waits for its messages to be removed from Slack, then goes.
 */
export const polls = pgTable(
  'polls',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    question: text('question').notNull(),
    html: text('html').notNull().default(''),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    options: jsonb('options').$type<PollOptionRecord[]>().notNull(),
    channelIds: jsonb('channel_ids').$type<string[]>().notNull(),
    sender: text('sender', { enum: ['bot', 'admin'] }).notNull(),
    adminUser: text('admin_user'),
    type: text('type', { enum: ['scheduled', 'instant'] }).notNull(),
    /** The creator as the Poll Table shows it. */
    createdBy: text('created_by').notNull(),
    /** The Flywheel user who created it. */
    createdByUser: text('created_by_user'),
    postAt: timestamp('post_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    receiptId: bigint('receipt_id', { mode: 'number' }),
    /** A worker posting, closing or removing the poll holds it until then (after a crash it comes back). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The final results are in the Slack messages. */
    finalAt: timestamp('final_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** An occurrence of a recurring poll (posted at its run time, `post_at`): the recurring poll. */
    recurrenceId: integer('recurrence_id').references(() => pollRecurrences.id, { onDelete: 'set null' }),
    /** How members vote: emoji reactions, or buttons (with `ballot`'s settings; votes in poll_choices). */
    voting: text('voting', { enum: ['emoji', 'buttons'] })
      .notNull()
      .default('emoji'),
    ballot: jsonb('ballot').$type<PollBallot>(),
  },
  (t) => [
    index('polls_team_idx').on(t.teamId, t.id),
    // One poll per recurring poll and run time, whatever number of workers plan it.
    uniqueIndex('polls_recurrence_run_key').on(t.recurrenceId, t.postAt),
    index('polls_to_post_idx')
      .on(t.postAt)
      .where(sql`receipt_id is null and deleted_at is null`),
    index('polls_to_close_idx')
      .on(t.expiresAt)
      .where(sql`final_at is null and deleted_at is null`),
  ],
);

/** Where a poll's message is in Slack (one per channel), as the delivery engine posted it. */
export const pollMessages = pgTable(
  'poll_messages',
  {
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.pollId, t.channelId] }),
    uniqueIndex('poll_messages_ts_key').on(t.teamId, t.channelId, t.ts),
  ],
);

/**
 * Each member's reactions on a poll's messages, per option: whether it is there, as of the newest event seen
 * for it (Slack does not promise events in order: an older event never overwrites a newer one).
 */
export const pollReactions = pgTable(
  'poll_reactions',
  {
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    memberId: text('member_id').notNull(),
    option: integer('option').notNull(),
    present: boolean('present').notNull(),
    at: timestamp('at', { withTimezone: true, precision: 6 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.memberId, t.option] })],
);

/**
 * One vote per member per poll: the option of their newest option reaction still on the message (a new choice
 * replaces the old; removing it removes that vote). Kept from poll_reactions in the same transaction.
 */
export const pollVotes = pgTable(
  'poll_votes',
  {
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    option: integer('option').notNull(),
    votedAt: timestamp('voted_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.memberId] })],
);

/**
 * A recurring poll: what each occurrence posts (question, options, channels, sender, emoji or button voting),
 * Every Day or Weekly on `days` at `time` in the workspace's timezone, each open for `duration_hours`. `polls.tick` plans due runs
 * with the shared planner (lib/plan-due.ts) into poll rows naming it. Deleting it sets `deleted_at` and clears
 * `next_run_at`: no later occurrence; the polls already posted stay.
 */
export const pollRecurrences = pgTable(
  'poll_recurrences',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    question: text('question').notNull(),
    html: text('html').notNull().default(''),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    options: jsonb('options').$type<PollOptionRecord[]>().notNull(),
    channelIds: jsonb('channel_ids').$type<string[]>().notNull(),
    sender: text('sender', { enum: ['bot', 'admin'] }).notNull(),
    adminUser: text('admin_user'),
    createdBy: text('created_by').notNull(),
    createdByUser: text('created_by_user'),
    /** Each occurrence's voting and button settings (copied into its poll row, as a one-off poll has them). */
    voting: text('voting', { enum: ['emoji', 'buttons'] })
      .notNull()
      .default('emoji'),
    ballot: jsonb('ballot').$type<PollBallot>(),
    frequency: text('frequency', { enum: ['Everyday', 'Weekly'] }).notNull(),
    days: jsonb('days').$type<string[]>().notNull().default([]),
    time: text('time').notNull(),
    durationHours: integer('duration_hours').notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('poll_recurrences_team_idx').on(t.teamId, t.id),
    index('poll_recurrences_due_idx')
      .on(t.nextRunAt)
      .where(sql`deleted_at is null and next_run_at is not null`),
  ],
);

/**
 * A button poll's votes: one row per voter and chosen option. `voter` is the member id on a named poll; on an
 * anonymous one it is `h:` and a keyed hash of the member id (HMAC, a key derived per poll from the server's
 * secret), enough to find a member's own votes again and nothing to read a name from; `voted_at` is null there.
 */
export const pollChoices = pgTable(
  'poll_choices',
  {
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    voter: text('voter').notNull(),
    option: integer('option').notNull(),
    votedAt: timestamp('voted_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.voter, t.option] })],
);
