import type { EngagementLevel } from '@flywheel/shared/levels';
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

/**
 * A workflow: a trigger and its tasks. `since` is when the trigger started watching (created
 * or resumed): activity and inactivity fire only for crossings after it. A time trigger fires once at
 * `trigger_at`; `fired_at` records it.
 */
export const workflows = pgTable(
  'workflows',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    name: text('name').notNull(),
    sender: text('sender', { enum: ['bot', 'admin'] }).notNull(),
    adminUser: text('admin_user'),
    triggerType: text('trigger_type', {
      enum: ['time', 'activity', 'inactivity', 'workspace_join', 'channel_join', 'level_change'],
    }).notNull(),
    channelId: text('channel_id'),
    /** Member Level: the engagement level a member's change to fires it. */
    level: text('level').$type<EngagementLevel>(),
    days: integer('days'),
    triggerAt: timestamp('trigger_at', { withTimezone: true }),
    firedAt: timestamp('fired_at', { withTimezone: true }),
    tags: jsonb('tags').$type<number[]>().notNull().default([]),
    segments: jsonb('segments').$type<number[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
    /** Activity, inactivity and level: when the trigger last looked at the activity data. */
    scannedAt: timestamp('scanned_at', { withTimezone: true }),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workflows_team_idx').on(t.teamId, t.id),
    index('workflows_time_due_idx')
      .on(t.triggerAt)
      .where(sql`trigger_type = 'time' and fired_at is null`),
  ],
);

/** What a task sends (the create payload's task, as validated). */
export type StoredTask = Record<string, unknown>;

/** A task: a message or a form, sent `delay_secs` after the previous step (the trigger for the first). */
export const workflowTasks = pgTable(
  'workflow_tasks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workflowId: integer('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: text('type', { enum: ['message', 'form'] }).notNull(),
    title: text('title').notNull(),
    delayUnit: text('delay_unit', { enum: ['minutes', 'hours', 'days'] }),
    delaySecs: integer('delay_secs').notNull().default(0),
    content: jsonb('content').$type<StoredTask>().notNull(),
    /** A form task's form (hidden from the Forms list; its instances hold the responses). */
    formId: integer('form_id'),
  },
  (t) => [uniqueIndex('workflow_tasks_position').on(t.workflowId, t.position)],
);

/**
 * One firing of a trigger: a member who joined the workspace or a channel, crossed the activity threshold, or
 * the time trigger's one run. The key makes each firing happen once whatever redeliveries or workers ask.
 */
export const workflowTriggers = pgTable(
  'workflow_triggers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    workflowId: integer('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    triggerKey: text('trigger_key').notNull(),
    memberId: text('member_id'),
    triggeredAt: timestamp('triggered_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('workflow_triggers_key').on(t.workflowId, t.triggerKey),
    index('workflow_triggers_history_idx').on(t.workflowId, t.triggeredAt),
  ],
);

/**
 * One task of one firing. Only the next step of a firing exists at a time: when a step is done, the step after it
 * is written with its due time (the delay after this one), so a chain survives any restart as rows. Claimed
 * like the other runs (a worker holds it until `claimed_until`; after a crash it comes back) and sent with a
 * key naming the step, so it is sent once.
 */
export const workflowSteps = pgTable(
  'workflow_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    workflowId: integer('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    triggerId: bigint('trigger_id', { mode: 'number' })
      .notNull()
      .references(() => workflowTriggers.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    position: integer('position').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['due', 'sent', 'failed'] })
      .notNull()
      .default('due'),
    receiptId: bigint('receipt_id', { mode: 'number' }),
    formInstanceId: bigint('form_instance_id', { mode: 'number' }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('workflow_steps_key').on(t.triggerId, t.position),
    index('workflow_steps_task_idx').on(t.workflowId, t.position, t.id),
    index('workflow_steps_due_idx')
      .on(t.dueAt)
      .where(sql`status = 'due'`),
  ],
);
