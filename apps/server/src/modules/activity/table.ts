import { getTableName, sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { EngagementLevel } from '@flywheel/shared/levels';

/** Daily activity per team, local day, member and channel: what analytics read. */
export const activityDaily = pgTable(
  'activity_daily',
  {
    teamId: text('team_id').notNull(),
    day: date('day').notNull(),
    memberId: text('member_id').notNull(),
    channelId: text('channel_id').notNull(),
    messages: integer('messages').notNull().default(0),
    replies: integer('replies').notNull().default(0),
    reactions: integer('reactions').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.day, t.memberId, t.channelId] }),
    index('activity_daily_member_idx').on(t.teamId, t.memberId, t.day),
    // Migration 0009 extends this index to (team_id, channel_id, day, member_id) INCLUDE (messages, replies,
    // reactions): channel filters read it index-only.
    index('activity_daily_channel_idx').on(t.teamId, t.channelId, t.day),
  ],
);

// Coarser rollups maintained with activity_daily, so Home and Analytics stay fast at 365 days on big workspaces.

/** Per team, local day and local hour (Activity Trends slots, workspace highlights). */
export const activityTeamHourly = pgTable(
  'activity_team_hourly',
  {
    teamId: text('team_id').notNull(),
    day: date('day').notNull(),
    hour: integer('hour').notNull(),
    messages: integer('messages').notNull().default(0),
    replies: integer('replies').notNull().default(0),
    reactions: integer('reactions').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day, t.hour] })],
);

/** Per team, local day and channel. */
export const activityChannelDaily = pgTable(
  'activity_channel_daily',
  {
    teamId: text('team_id').notNull(),
    day: date('day').notNull(),
    channelId: text('channel_id').notNull(),
    messages: integer('messages').notNull().default(0),
    replies: integer('replies').notNull().default(0),
    reactions: integer('reactions').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day, t.channelId] })],
);

/** Per team, local day and member. */
export const activityMemberDaily = pgTable(
  'activity_member_daily',
  {
    teamId: text('team_id').notNull(),
    day: date('day').notNull(),
    memberId: text('member_id').notNull(),
    messages: integer('messages').notNull().default(0),
    replies: integer('replies').notNull().default(0),
    reactions: integer('reactions').notNull().default(0),
  },
  (t) => [
    // Migration 0005 makes this key carry messages, replies and reactions (INCLUDE): windows read index-only.
    primaryKey({ columns: [t.teamId, t.day, t.memberId] }),
    index('activity_member_daily_member_idx').on(t.teamId, t.memberId, t.day),
  ],
);

/**
 * Retention by join cohort's summary of activity_member_daily, one row per member: in which of the first 12
 * weeks after `join_day` (bit k: local days join_day + 7k .. + 7k + 6) the member had any message, reply or
 * reaction, and the last such day. `join_day` is the member's local join day when the row was computed; a row
 * whose join_day no longer matches (join time or timezone changed), or a member with no row, is read from
 * activity_member_daily instead (cohorts.ts). Kept by the rollup flush when a member-day starts or stops
 * counting inside the window (rollups.ts).
 */
export const activityMemberCohortWeeks = pgTable(
  'activity_member_cohort_weeks',
  {
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    joinDay: date('join_day').notNull(),
    weeks: integer('weeks').notNull(),
    lastDay: date('last_day'),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.memberId] }),
    // The cohorts' window of join days (the migration makes it carry member_id, weeks and last_day: index-only).
    index('activity_member_cohort_weeks_join_idx').on(t.teamId, t.joinDay),
  ],
);

/** Per team, local day and keyword (lemma): in how many messages and replies it appeared (word cloud). */
export const keywordDaily = pgTable(
  'keyword_daily',
  {
    teamId: text('team_id').notNull(),
    day: date('day').notNull(),
    term: text('term').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day, t.term] })],
);

/** Per team, local month (its first day) and member: long windows read whole months here. */
export const activityMemberMonthly = pgTable(
  'activity_member_monthly',
  {
    teamId: text('team_id').notNull(),
    month: date('month').notNull(),
    memberId: text('member_id').notNull(),
    messages: integer('messages').notNull().default(0),
    replies: integer('replies').notNull().default(0),
    reactions: integer('reactions').notNull().default(0),
  },
  // Migration 0005 makes this key carry messages, replies and reactions (INCLUDE): windows read index-only.
  (t) => [primaryKey({ columns: [t.teamId, t.month, t.memberId] })],
);

/** Per team and local day: how many members had any activity (messages + replies + reactions > 0). */
export const activityTeamDaily = pgTable(
  'activity_team_daily',
  {
    teamId: text('team_id').notNull(),
    day: date('day').notNull(),
    activeMembers: integer('active_members').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day] })],
);

/** The standing windows: the last 7, 14, 90 and 365 local days, and the same lengths just before them. */
export const STANDING_WINDOWS = [7, 14, 90, 365] as const;
const windowColumns = Object.fromEntries(
  STANDING_WINDOWS.flatMap((n) =>
    (['w', 'p'] as const).flatMap((side) =>
      (['messages', 'replies', 'reactions'] as const).map((c) => {
        const name = `${side}${n}_${c}`;
        return [name, integer(name).notNull().default(0)] as const;
      }),
    ),
  ),
);

/**
 * Per team and member: totals of the standing windows ending on the team's anchor day (`w7_messages`: the
 * last 7 days, `p7_messages`: the 7 before them, ...). Rebuilt from the member rollups when the local day
 * changes and kept current by every ingestion batch, so year-long per-member answers read one row per member.
 */
export const activityMemberWindows = pgTable(
  'activity_member_windows',
  { teamId: text('team_id').notNull(), memberId: text('member_id').notNull(), ...windowColumns },
  (t) => [
    primaryKey({ columns: [t.teamId, t.memberId] }),
    // The Members list's default order (activity, most first, ties by member id) per standing window, for the
    // members with any: a page walks it for the page alone (members-ranking.ts, activityPage). Each ingestion
    // batch that changes a member's windows writes these four as well (see docs/capacity.md).
    ...STANDING_WINDOWS.map((n) =>
      index(`activity_member_windows_w${n}_activity_idx`)
        .on(t.teamId, sql.raw(`(w${n}_messages + w${n}_replies + w${n}_reactions) desc`), t.memberId)
        .where(sql.raw(`w${n}_messages + w${n}_replies + w${n}_reactions <> 0`)),
    ),
  ],
);

/** Per team: the local day the standing windows of activity_member_windows end on. */
export const activityWindowAnchor = pgTable('activity_window_anchor', {
  teamId: text('team_id').primaryKey(),
  day: date('day').notNull(),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Per team and member: the engagement level (packages/shared/src/levels.ts) and the local day it began. */
export const memberLevels = pgTable(
  'member_levels',
  {
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    level: text('level').$type<EngagementLevel>().notNull(),
    since: date('since').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.memberId] }),
    // The Members filter and the level counts: the members of one level.
    index('member_levels_level_idx').on(t.teamId, t.level, t.memberId),
  ],
);

/** Every change of a member's level (the first computed level has no `from`): the member page's history. */
export const memberLevelChanges = pgTable(
  'member_level_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    teamId: text('team_id').notNull(),
    memberId: text('member_id').notNull(),
    fromLevel: text('from_level').$type<EngagementLevel>(),
    toLevel: text('to_level').$type<EngagementLevel>().notNull(),
    day: date('day').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('member_level_changes_member_idx').on(t.teamId, t.memberId, t.id),
    // The weekly digest: a workspace's changes of a week.
    index('member_level_changes_day_idx').on(t.teamId, t.day),
  ],
);

/** Per team: the local day the levels were last computed for, and when. */
export const memberLevelsAnchor = pgTable('member_levels_anchor', {
  teamId: text('team_id').primaryKey(),
  day: date('day').notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The rollups ingestion updates in place all day (counters): db/maintenance.ts vacuums them where autovacuum does
 * not run. Their names come from here because only this module names its rollups (docs/ARCHITECTURE.md, "Tables
 * and their owners").
 */
export const BUSY_ROLLUPS: string[] = [
  activityDaily,
  activityTeamHourly,
  activityTeamDaily,
  activityChannelDaily,
  activityMemberDaily,
  activityMemberMonthly,
  activityMemberWindows,
  activityMemberCohortWeeks,
  keywordDaily,
].map((t) => getTableName(t));
