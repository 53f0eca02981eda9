import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { BucketDefinition } from '@flywheel/shared/buckets';

/**
 * A bucket: a saved filter definition of a workspace, evaluated on the current data each time
 * it runs. `last_*` describe the last run: when (null is 'Not-Executed'), how many members it found, and the
 * window and channel names its rows are labelled with.
 */
export const buckets = pgTable(
  'buckets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    name: text('name').notNull(),
    data: jsonb('data').$type<BucketDefinition>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastExecute: timestamp('last_execute', { withTimezone: true }),
    lastCount: integer('last_count'),
    lastFromDay: date('last_from_day'),
    lastToDay: date('last_to_day'),
    lastChannels: text('last_channels'),
  },
  (t) => [uniqueIndex('buckets_team_name_key').on(t.teamId, sql`lower(${t.name})`)],
);

/** The members a bucket's last run found, with their counts over its window (export, tags, audiences). */
export const bucketMembers = pgTable(
  'bucket_members',
  {
    bucketId: integer('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    messages: integer('messages').notNull().default(0),
    replies: integer('replies').notNull().default(0),
    reactions: integer('reactions').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.bucketId, t.memberId] }),
    index('bucket_members_member_idx').on(t.teamId, t.memberId),
  ],
);
