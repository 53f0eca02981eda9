import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { DayCode } from '@flywheel/shared/clock';
import { workspaceAdmins } from '../workspaces/table.ts';

/**
 * Who gets the weekly digest of which workspace, and how (docs/product/digest.md). Opt-in: no row, no digest. The
 * row goes with the admin's access to the workspace. `enabledAt`: when they last turned it on; only weeks whose
 * digest goes out after that are sent (turning it on on a Wednesday does not send last week's at once).
 */
export const digestSubscriptions = pgTable(
  'digest_subscriptions',
  {
    teamId: text('team_id').notNull(),
    userId: text('user_id').notNull(),
    email: boolean('email').notNull().default(false),
    slackDm: boolean('slack_dm').notNull().default(false),
    /** When it goes out: a weekday (`mon` ... `sun`) and a local hour of the workspace. */
    day: text('day').$type<DayCode>().notNull().default('mon'),
    hour: integer('hour').notNull().default(9),
    enabledAt: timestamp('enabled_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    foreignKey({
      columns: [t.teamId, t.userId],
      foreignColumns: [workspaceAdmins.teamId, workspaceAdmins.userId],
    }).onDelete('cascade'),
  ],
);

/**
 * One row per admin, workspace and week: the claim that makes a digest go out once, whichever process's tick
 * finds it due first. `claimedAt`: when a tick took it (a claim left by a process that died is taken again after
 * DIGEST_CLAIM_SECONDS); `emailSentAt` / `slackReceiptId`: what was done, each once (a retry does only the rest).
 */
export const digestDeliveries = pgTable(
  'digest_deliveries',
  {
    teamId: text('team_id').notNull(),
    userId: text('user_id').notNull(),
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(1),
    emailSentAt: timestamp('email_sent_at', { withTimezone: true }),
    slackReceiptId: integer('slack_receipt_id'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId, t.weekStart] }),
    index('digest_deliveries_open_idx')
      .on(t.claimedAt)
      .where(sql`done_at is null`),
  ],
);
