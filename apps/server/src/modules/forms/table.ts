import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { QuestionType } from '@flywheel/shared/forms';

/** A question as stored (a number question with its bounds, null when open, and whether decimals are allowed). */
export type StoredQuestion = {
  question: string;
  description: string;
  type: QuestionType;
  options: string[];
  optional: boolean;
  min?: number | null;
  max?: number | null;
  decimal?: boolean;
};

/** A stored answer: `values` holds a checkboxes answer's options one by one (`answer` joins them). */
export type StoredAnswer = { question: string; answer: string; values?: string[] };

/** Whom an instance goes to: the form's targets, or the Send-form popup's (resolved when it is sent). */
export type InstanceAudience = {
  channel_ids: string[];
  dms: { members: string[]; tags: number[]; channels: string[] };
  sendtoworkspace: boolean;
};

/**
 * A master form: its questions, acknowledgement, sender, targets and when it goes out (one
 * time, instantly or at `run_at`, or Every Day / Weekly at `time` in the workspace's timezone). Deleting one
 * sets `deleted_at` and clears `next_run_at`: it leaves the lists, no later recurrence is planned or sent, and
 * the receipts of what was already sent keep their story.
 */
export const forms = pgTable(
  'forms',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    sender: text('sender', { enum: ['bot', 'admin'] }).notNull(),
    adminUser: text('admin_user'),
    questions: jsonb('questions').$type<StoredQuestion[]>().notNull(),
    ackMessage: text('ack_message').notNull(),
    channelIds: jsonb('channel_ids').$type<string[]>().notNull().default([]),
    dmMembers: jsonb('dm_members').$type<string[]>().notNull().default([]),
    dmTags: jsonb('dm_tags').$type<number[]>().notNull().default([]),
    dmChannels: jsonb('dm_channels').$type<string[]>().notNull().default([]),
    sendToWorkspace: boolean('send_to_workspace').notNull().default(false),
    frequency: text('frequency', { enum: ['Everyday', 'Weekly', 'onetime'] }).notNull(),
    days: jsonb('days').$type<string[]>().notNull().default([]),
    time: text('time'),
    runAt: timestamp('run_at', { withTimezone: true }),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** A workflow's form task: sent by the workflow's steps, not listed with the workspace's forms. */
    workflowId: integer('workflow_id'),
  },
  (t) => [
    index('forms_team_idx').on(t.teamId, t.id),
    index('forms_due_idx')
      .on(t.nextRunAt)
      .where(sql`deleted_at is null and next_run_at is not null`),
  ],
);

/**
 * One send of a form: a recurrence's run time, a scheduled or instant send, or
 * a Send-form popup. `run_key` makes each run time one instance whatever number of workers plan it.
 */
export const formInstances = pgTable(
  'form_instances',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    formId: integer('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    runKey: text('run_key').notNull(),
    executionTime: timestamp('execution_time', { withTimezone: true }).notNull(),
    audience: jsonb('audience').$type<InstanceAudience>().notNull(),
    status: text('status', { enum: ['due', 'sent', 'failed', 'skipped'] }).notNull(),
    receiptId: bigint('receipt_id', { mode: 'number' }),
    recipients: integer('recipients').notNull().default(0),
    error: text('error'),
    /** A worker sending this instance holds it until then (another skips it; after a crash it comes back). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('form_instances_key').on(t.formId, t.runKey),
    index('form_instances_team_form_idx').on(t.teamId, t.formId, t.id),
    index('form_instances_due_idx')
      .on(t.executionTime)
      .where(sql`status = 'due'`),
  ],
);

/** A member's answers to one instance; a second submission replaces them. */
export const formResponses = pgTable(
  'form_responses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    instanceId: bigint('instance_id', { mode: 'number' })
      .notNull()
      .references(() => formInstances.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    answers: jsonb('answers').$type<StoredAnswer[]>().notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    /** The acknowledgement DM's receipt (sent once, on the first submission). */
    ackReceiptId: bigint('ack_receipt_id', { mode: 'number' }),
  },
  (t) => [uniqueIndex('form_responses_member_key').on(t.instanceId, t.memberId)],
);
