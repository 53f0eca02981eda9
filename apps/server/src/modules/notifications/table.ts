import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../auth/table.ts';

/**
 * One notification of one person (every admin of the workspace gets their own row, with their own read state).
 * `data` holds what its text and link are made of (names, ids, counts; see service.ts). `dedupeKey`: a happening
 * told once per person (a finish recorded twice finds its row). `groupKey`: happenings gathered in the person's one
 * unread row (new responses to one form instance), counted in `count`; once read, the next one starts a new row.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    dedupeKey: text('dedupe_key'),
    groupKey: text('group_key'),
    count: integer('count').notNull().default(1),
    /** When it happened (the latest happening of a gathered row): the list's order. */
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_idx').on(t.userId, t.dedupeKey),
    uniqueIndex('notifications_group_idx')
      .on(t.userId, t.groupKey)
      .where(sql`read_at is null`),
    index('notifications_user_idx').on(t.userId, t.at, t.id),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`read_at is null`),
    index('notifications_at_idx').on(t.at),
  ],
);
