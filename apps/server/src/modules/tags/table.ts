import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A workspace's member tags (Tag id, name). */
export const tags = pgTable(
  'tags',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_team_name_key').on(t.teamId, sql`lower(${t.name})`)],
);

export const memberTags = pgTable(
  'member_tags',
  {
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.memberId, t.tagId] }), index('member_tags_tag_idx').on(t.tagId)],
);
