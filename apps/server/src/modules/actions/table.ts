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
 * Automations (kind automation: a Member Join trigger) and schedules (kind schedule: One Time, Every Day or
 * Weekly at HH:MM in the workspace's timezone). What they send and to whom is kept as given; the audience is
 * resolved at each run, so a tag or channel means its members at that moment.
 */
export const actions = pgTable(
  'actions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    kind: text('kind', { enum: ['automation', 'schedule'] }).notNull(),
    name: text('name').notNull(),
    sender: text('sender', { enum: ['bot', 'admin'] }).notNull(),
    adminUser: text('admin_user'),
    message: text('message').notNull(),
    html: text('html').notNull().default(''),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    channelIds: jsonb('channel_ids').$type<string[]>().notNull().default([]),
    dmMembers: jsonb('dm_members').$type<string[]>().notNull().default([]),
    dmTags: jsonb('dm_tags').$type<number[]>().notNull().default([]),
    dmChannels: jsonb('dm_channels').$type<string[]>().notNull().default([]),
    sendToWorkspace: boolean('send_to_workspace').notNull().default(false),
    /** Automation: DM the member who joined. */
    sendDm: boolean('send_dm').notNull().default(false),
    frequency: text('frequency', { enum: ['Everyday', 'Weekly', 'onetime'] }),
    days: jsonb('days').$type<string[]>().notNull().default([]),
    time: text('time'),
    /** One Time: when. */
    runAt: timestamp('run_at', { withTimezone: true }),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('actions_team_kind_idx').on(t.teamId, t.kind, t.id),
    index('actions_due_idx')
      .on(t.nextRunAt)
      .where(sql`active and next_run_at is not null`),
  ],
);

/**
 * One run of an action: a schedule's run time, or an automation's join (member and join time). The key makes
 * each run happen once whatever retries, redeliveries or workers ask again; its receipt is the send's.
 */
export const actionRuns = pgTable(
  'action_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actionId: integer('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    runKey: text('run_key').notNull(),
    memberId: text('member_id'),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['due', 'sent', 'skipped', 'failed'] }).notNull(),
    receiptId: bigint('receipt_id', { mode: 'number' }),
    error: text('error'),
    /** A worker sending this run holds it until then (another worker skips it; after a crash it comes back). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('action_runs_key').on(t.actionId, t.runKey),
    index('action_runs_due_idx')
      .on(t.dueAt)
      .where(sql`status = 'due'`),
  ],
);
