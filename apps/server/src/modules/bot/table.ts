import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The bot identity per workspace; absent row = defaults. */
export const botSettings = pgTable('bot_settings', {
  teamId: text('team_id').primaryKey(),
  botName: text('bot_name').notNull(),
  /** true: the Flywheel image served by this server; false: the workspace icon from team.info. */
  useCustom: boolean('use_custom').notNull(),
  /** The workspace icon URL last read from team.info (cached; null until known). */
  workspaceIcon: text('workspace_icon'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
