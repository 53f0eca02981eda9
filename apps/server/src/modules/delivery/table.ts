import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** What a receipt sends to each recipient: mrkdwn text, Slack file ids of its images, a thread to reply in. */
export type DeliveryMessage = {
  text: string;
  images: string[];
  /** A reply: the parent's ts (recipients are then the channel of the thread). */
  threadTs?: string;
  /** Interactive blocks after the text and images (a form's button), as Slack's Block Kit JSON. */
  blocks?: Record<string, unknown>[];
};

/**
 * One action = one receipt. The counts are kept with every recipient's outcome in the
 * same transaction, so the Receipts page reads one row per action, never the recipient rows.
 */
export const deliveryReceipts = pgTable(
  'delivery_receipts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teamId: text('team_id').notNull(),
    actionType: text('action_type').notNull(),
    description: text('description').notNull(),
    sender: text('sender', { enum: ['bot', 'admin'] }).notNull(),
    /** The sending admin's Slack user id (sender admin). */
    adminUser: text('admin_user'),
    message: jsonb('message').$type<DeliveryMessage>().notNull(),
    createdBy: text('created_by'),
    /** Set by senders that may ask twice for the same send (a schedule's run, a join): one receipt per key. */
    idempotencyKey: text('idempotency_key'),
    total: integer('total').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Failed with an error worth another try (Retry re-queues these). */
    retryable: integer('retryable').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Why nothing was sent: a scheduled or workflow send refused by the daily budget (no recipients then). */
    error: text('error'),
    /**
     * When a worker last took one of its recipients (null: never). A worker takes the next recipient from the
     * open receipt served least recently, so the sends of a workspace take turns: a one-recipient send made
     * during a 10,000-recipient one goes next, not after it.
     */
    servedAt: timestamp('served_at', { withTimezone: true }),
  },
  (t) => [
    index('delivery_receipts_team_idx').on(t.teamId, t.id),
    // The turns: a workspace's open receipts (a few; sorted by served_at when claiming, which is left out of the
    // index so that taking a turn, once per message, is a HOT update of the receipt's row).
    index('delivery_receipts_open_idx')
      .on(t.teamId)
      .where(sql`finished_at is null`),
    uniqueIndex('delivery_receipts_idempotency_key').on(t.idempotencyKey),
    // The daily budget: the messages a workspace queued in the last 24 hours.
    index('delivery_receipts_team_created_idx').on(t.teamId, t.createdAt),
  ],
);

/**
 * A person's Idempotency-Key (per workspace and admin): the request it was first used with (its hash) and the
 * answer it got, replayed to the same key for 24 hours. The primary key makes parallel duplicates one: the
 * first claims the row, the others wait for its answer. `token` names the send's receipt, so even a request run
 * again after a crash between its receipt and its answer makes one receipt.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    teamId: text('team_id').notNull(),
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    token: text('token').notNull(),
    /** The answer (null while the first request runs). */
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId, t.key] })],
);

/**
 * When a scope (a workflow's step) last reached a member: a scope reaches a member at most once per window,
 * whatever number of firings ask (workflows' per-member limit).
 */
export const deliveryMemberMarks = pgTable(
  'delivery_member_marks',
  {
    teamId: text('team_id').notNull(),
    scope: text('scope').notNull(),
    memberId: text('member_id').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.scope, t.memberId] })],
);

export const RECIPIENT_STATES = ['pending', 'sending', 'sent', 'failed'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

/**
 * A recipient of a receipt: a member (a DM) or a channel (a post). Its life: pending -> sending (an attempt
 * recorded before the call, with a lease) -> sent | failed, or back to pending with a later `due_at` when the
 * failure is worth another try. A `sending` row whose lease lapsed was cut off between Slack's answer and our
 * commit: before sending again, the conversation is searched for the message carrying this row's id.
 */
export const deliveryRecipients = pgTable(
  'delivery_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    receiptId: bigint('receipt_id', { mode: 'number' })
      .notNull()
      .references(() => deliveryReceipts.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    kind: text('kind', { enum: ['member', 'channel'] }).notNull(),
    /** U… for a member, C…/G… for a channel. */
    targetId: text('target_id').notNull(),
    state: text('state', { enum: RECIPIENT_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** When the first attempt started: where a search for a message already sent begins. */
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    /** Whether an attempt may have reached Slack without our knowing (timeout, 5xx, crash). */
    uncertain: integer('uncertain').notNull().default(0),
    /** The conversation the message went to (the DM's D… id for members). */
    channelId: text('channel_id'),
    ts: text('ts'),
    error: text('error'),
    retryable: integer('retryable').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('delivery_recipients_target_key').on(t.receiptId, t.kind, t.targetId),
    // The work list: open rows by when they are due (sent and failed rows leave the index).
    index('delivery_recipients_due_idx')
      .on(t.teamId, t.dueAt)
      .where(sql`state in ('pending', 'sending')`),
    index('delivery_recipients_receipt_state_idx').on(t.receiptId, t.state),
    // A receipt's next open recipient (a claim takes the first due one of the receipt whose turn it is).
    index('delivery_recipients_receipt_due_idx')
      .on(t.receiptId, t.dueAt, t.id)
      .where(sql`state in ('pending', 'sending')`),
    // A reply in a DM finds the message it answers: the conversation's sends, newest first.
    index('delivery_recipients_conversation_idx')
      .on(t.teamId, t.channelId, t.ts)
      .where(sql`channel_id is not null and ts is not null`),
  ],
);

/**
 * What members wrote back in their direct messages with the bot (Events API `message.im`): each linked to the
 * send it answers (the thread's message, else the latest message the bot sent them before it), or to none when
 * a member wrote first. DM text lives only here: it is never counted in channel analytics.
 */
export const deliveryReplies = pgTable(
  'delivery_replies',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teamId: text('team_id').notNull(),
    /** The D… conversation and the reply's own ts: a reply is stored once whatever Slack retries. */
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    threadTs: text('thread_ts'),
    memberId: text('member_id').notNull(),
    receiptId: bigint('receipt_id', { mode: 'number' }).references(() => deliveryReceipts.id, {
      onDelete: 'set null',
    }),
    recipientId: bigint('recipient_id', { mode: 'number' }).references(() => deliveryRecipients.id, {
      onDelete: 'set null',
    }),
    text: text('text').notNull(),
    /** Files attached to the reply (their count: the files themselves stay in Slack). */
    files: integer('files').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('delivery_replies_message_key').on(t.teamId, t.channelId, t.ts),
    index('delivery_replies_receipt_idx').on(t.receiptId, t.sentAt),
    index('delivery_replies_member_idx').on(t.teamId, t.memberId, t.sentAt),
  ],
);

/**
 * Shared pacing (GCRA): per workspace and key (a method, or a method and channel), the theoretical arrival time
 * of the next call. Every worker process takes its slot here, so the budget holds across processes; a 429
 * pushes it out by Retry-After for all of them.
 */
export const deliveryPacing = pgTable(
  'delivery_pacing',
  {
    teamId: text('team_id').notNull(),
    key: text('key').notNull(),
    tat: timestamp('tat', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.key] })],
);

/** Images uploaded to Slack for a message (POST /quickaction/uploadimage); a send may use only its team's. */
export const deliveryImages = pgTable(
  'delivery_images',
  {
    fileId: text('file_id').primaryKey(),
    teamId: text('team_id').notNull(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    bytes: integer('bytes').notNull(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('delivery_images_team_idx').on(t.teamId)],
);
