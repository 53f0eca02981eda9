import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/table.ts';

/** A connected Slack workspace (spec section 3: team_id, workspace_name, domain, timezone). */
export const workspaces = pgTable('workspaces', {
  teamId: text('team_id').primaryKey(),
  name: text('workspace_name').notNull(),
  domain: text('domain').notNull(),
  timezone: text('timezone').notNull().default('UTC'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Which Flywheel users administer which workspace (and which Slack user each one is there). */
export const workspaceAdmins = pgTable(
  'workspace_admins',
  {
    teamId: text('team_id')
      .notNull()
      .references(() => workspaces.teamId, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slackUserId: text('slack_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);
