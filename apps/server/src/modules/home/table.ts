import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The Home task board card: tasks per workspace in three columns, ordered by position inside a column. */
export const homeTasks = pgTable(
  'home_tasks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: ['todo', 'doing', 'done'] }).notNull(),
    position: integer('position').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('home_tasks_board_idx').on(t.teamId, t.status, t.position)],
);
