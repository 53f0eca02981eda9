import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** A workspace member as Slack gives it (users.list / team_join / user_change). */
export const slackMembers = pgTable(
  'slack_members',
  {
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    realName: text('real_name').notNull().default(''),
    displayName: text('display_name').notNull().default(''),
    email: text('email'),
    avatarUrl: text('avatar_url'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isOwner: boolean('is_owner').notNull().default(false),
    isBot: boolean('is_bot').notNull().default(false),
    deleted: boolean('deleted').notNull().default(false),
    tz: text('tz'),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
    leftAt: timestamp('left_at', { withTimezone: true }),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    /** Slack's `updated` of the profile applied last: an older user object never overwrites a newer one. */
    slackUpdated: bigint('slack_updated', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Real name, display name and e-mail, lower-cased once when written, for the Members search: one `like`
     * per member instead of three case-folding `ilike`s (5x less work on a 50,000-member workspace). The
     * fields are joined by a unit separator, which a search never holds, so no match spans two fields.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(real_name || chr(31) || display_name || chr(31) || coalesce(email, ''))`,
    ),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.memberId] }),
    index('slack_members_email_idx').on(t.teamId, t.email),
    // The few bots and admins of a workspace, found without reading every member.
    index('slack_members_bots_idx')
      .on(t.teamId, t.memberId)
      .where(sql`is_bot`),
    index('slack_members_admins_idx')
      .on(t.teamId, t.memberId)
      .where(sql`is_admin or is_owner`),
    // The Members list sorted by a profile column, with no activity condition, walks one of these for its page
    // only (members-ranking.ts, profilePage): the sort key as the list orders it, then the member id that breaks
    // its ties. Bots are never listed. The last activity has none: it changes with every batch ingested, and an
    // index on it would make those updates write every index of the table.
    index('slack_members_real_name_idx')
      .on(t.teamId, sql`lower(${t.realName})`, t.memberId)
      .where(sql`not is_bot`),
    index('slack_members_display_name_idx')
      .on(t.teamId, sql`lower(coalesce(nullif(${t.displayName}, ''), ${t.realName}))`, t.memberId)
      .where(sql`not is_bot`),
    index('slack_members_email_sort_idx')
      .on(t.teamId, sql`lower(${t.email})`, t.memberId)
      .where(sql`not is_bot`),
    index('slack_members_joined_idx')
      .on(t.teamId, t.joinedAt, t.memberId)
      .where(sql`not is_bot`),
    // The pager's count of the people (and of those who left), read from the index alone.
    index('slack_members_people_idx')
      .on(t.teamId, t.deleted)
      .where(sql`not is_bot`),
  ],
);

export const slackChannels = pgTable(
  'slack_channels',
  {
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    name: text('name').notNull(),
    isPrivate: boolean('is_private').notNull().default(false),
    isArchived: boolean('is_archived').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.channelId] })],
);

export const channelMembers = pgTable(
  'slack_channel_members',
  {
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    memberId: text('member_id').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.channelId, t.memberId] }),
    index('slack_channel_members_member_idx').on(t.teamId, t.memberId),
  ],
);

/** Messages and thread replies; `ts` stays Slack's string id. Deleted ones are kept, flagged. */
export const slackMessages = pgTable(
  'slack_messages',
  {
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    userId: text('user_id'),
    threadTs: text('thread_ts'),
    subtype: text('subtype'),
    text: text('text').notNull().default(''),
    isReply: boolean('is_reply').notNull().default(false),
    /** The local day (workspace timezone) the message counts on. */
    day: date('day').notNull(),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.channelId, t.ts] }),
    index('slack_messages_user_idx').on(t.teamId, t.userId, t.postedAt),
    index('slack_messages_thread_idx').on(t.teamId, t.channelId, t.threadTs),
    index('slack_messages_posted_idx').on(t.teamId, t.postedAt),
    // A channel's posts (top-level messages) newest first: the Threads and Posts lists of one channel.
    index('slack_messages_channel_posts_idx')
      .on(t.teamId, t.channelId, t.postedAt)
      .where(sql`not is_reply and deleted_at is null`),
    index('slack_messages_text_idx').using('gin', sql`to_tsvector('english', ${t.text})`),
  ],
);

export const slackReactions = pgTable(
  'slack_reactions',
  {
    teamId: text('team_id').notNull(),
    channelId: text('channel_id').notNull(),
    ts: text('ts').notNull(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    day: date('day').notNull(),
    reactedAt: timestamp('reacted_at', { withTimezone: true }).notNull(),
    /** Set when removed (or when the removal arrived first): events may arrive out of order. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.channelId, t.ts, t.userId, t.name] }),
    index('slack_reactions_user_idx').on(t.teamId, t.userId, t.reactedAt),
  ],
);

/** Joins and leaves of the workspace, for the members-change graph. */
export const memberEvents = pgTable(
  'slack_member_events',
  {
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    kind: text('kind', { enum: ['join', 'leave'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    day: date('day').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.memberId, t.kind, t.at] }),
    index('slack_member_events_day_idx').on(t.teamId, t.day),
  ],
);

/** Resumable history import after install. */
export const backfills = pgTable('slack_backfills', {
  teamId: text('team_id').primaryKey(),
  status: text('status', { enum: ['running', 'done', 'failed'] }).notNull(),
  days: integer('days').notNull(),
  /** Where to resume: phase and cursors. */
  state: jsonb('state').notNull(),
  channelsTotal: integer('channels_total').notNull().default(0),
  channelsDone: integer('channels_done').notNull().default(0),
  messages: bigint('messages', { mode: 'number' }).notNull().default(0),
  requests: integer('requests').notNull().default(0),
  rateLimited: integer('rate_limited').notNull().default(0),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  error: text('error'),
  /** The runner holding the backfill renews this; another runner takes over once it lapses. */
  leasedUntil: timestamp('leased_until', { withTimezone: true }),
});
