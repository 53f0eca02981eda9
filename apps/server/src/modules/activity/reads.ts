import { sql, type SQL } from 'drizzle-orm';
import type { Operator } from '@flywheel/shared/members';
import type { Db } from '../../db/client.ts';
import { typedRows, typedResult, type Tx } from '../../db/sql.ts';
import type { MemberCountsRow } from '../workspace-data/member-dto.ts';
import { memberTotalsSource } from './standing-windows.ts';
import { workspaceAdmins } from '../workspaces/table.ts';
import { memberTags } from '../tags/table.ts';
import { backfills, memberEvents, slackChannels, slackMembers } from '../workspace-data/table.ts';

/** A window of local days, both included. */
export type Window = { teamId: string; fromDay: string; toDay: string };
export type Counts = { messages: number; replies: number; reactions: number };
export type ActivityCondition = { column: keyof Counts; operator: Operator; count: number };
export type ActivityMatch = { combiner: 'AND' | 'OR'; conditions: ActivityCondition[] } | null;

export type MemberTotalsRow = Counts & {
  member_id: string;
  real_name: string;
  display_name: string;
  email: string;
};

const OPS: Record<Operator, SQL> = { '>': sql`>`, '<': sql`<`, '=': sql`=` };
const inWindow = (w: Window) =>
  sql`team_id = ${w.teamId} and day >= ${w.fromDay}::date and day <= ${w.toDay}::date`;
const sums = sql`sum(messages)::int as messages, sum(replies)::int as replies, sum(reactions)::int as reactions`;

/** Whether a member with no activity at all meets the condition (e.g. "messages = 0" or "replies < 5"). */
export function holdsAtZero(m: ActivityMatch): boolean {
  if (!m || m.conditions.length === 0) return true;
  const at = (c: ActivityCondition) =>
    c.operator === '>' ? 0 > c.count : c.operator === '<' ? 0 < c.count : c.count === 0;
  return m.combiner === 'AND' ? m.conditions.every(at) : m.conditions.some(at);
}

/** `(a.messages > 3 and a.replies < 2)` over coalesced totals of alias `a`, or nothing. */
function matchSql(m: ActivityMatch, alias: string): SQL | null {
  if (!m || m.conditions.length === 0) return null;
  const parts = m.conditions.map(
    (c) => sql`coalesce(${sql.raw(`${alias}.${c.column}`)}, 0) ${OPS[c.operator]} ${c.count}`,
  );
  return sql`(${sql.join(parts, m.combiner === 'AND' ? sql` and ` : sql` or `)})`;
}

/**
 * `alias.member_id` is not a bot's. Bots are few, so NOT IN keeps them in one hashed set instead of joining
 * every total to the members table (which the planner tends to do row by row for a year's worth of members).
 */
const notBot = (teamId: string, alias: string) =>
  sql`${sql.raw(alias)}.member_id not in (select b.member_id from ${slackMembers} b where b.team_id = ${teamId} and b.is_bot)`;

const all = typedRows;

export type MemberInfoRow = MemberCountsRow & { email: string; is_owner: boolean; left_at: string | null };

/** A member with counts since a day (the directory). */
export type MemberListRow = MemberCountsRow;

/**
 * The activity read API: every read of the rollups (activity_* and keyword_daily) for Home, Analytics, member
 * detail and the directory, never raw messages. (The Members table's ranked pages are members-ranking.ts.)
 */
export const activityReads = (db: Db) => ({
  /** Workspace totals per local day (activity_team_hourly). */
  perDay: (w: Window) =>
    all<Counts & { day: string }>(
      db,
      sql`select day::text as day, ${sums} from activity_team_hourly where ${inWindow(w)} group by day`,
    ),

  /** Workspace totals per local hour of day over the window (Activity Trends). */
  perHour: (w: Window) =>
    all<Counts & { hour: number }>(
      db,
      sql`select hour, ${sums} from activity_team_hourly where ${inWindow(w)} group by hour`,
    ),

  /** Totals of the window (activity_team_hourly). */
  async totals(w: Window): Promise<Counts> {
    const [r] = await all<Counts>(db, sql`select ${sums} from activity_team_hourly where ${inWindow(w)}`);
    return { messages: r?.messages ?? 0, replies: r?.replies ?? 0, reactions: r?.reactions ?? 0 };
  },

  /** Totals over local (day, hour) slots from..to inclusive: the last 24 hours of the Home cards. */
  async hourTotals(teamId: string, from: { day: string; hour: number }, to: { day: string; hour: number }) {
    const [r] = await all<Counts>(
      db,
      sql`select ${sums} from activity_team_hourly where team_id = ${teamId}
        and day >= ${from.day}::date and day <= ${to.day}::date
        and (day > ${from.day}::date or hour >= ${from.hour}) and (day < ${to.day}::date or hour <= ${to.hour})`,
    );
    return { messages: r?.messages ?? 0, replies: r?.replies ?? 0, reactions: r?.reactions ?? 0 };
  },

  /** Per local day and channel, for the given channels (activity_channel_daily). */
  perDayChannel: (w: Window, channels: string[]) =>
    all<Counts & { day: string; channel_id: string }>(
      db,
      sql`select day::text as day, channel_id, ${sums} from activity_channel_daily
        where ${inWindow(w)} and channel_id = any(${sql.param(channels)}::text[]) group by day, channel_id`,
    ),

  /** Every channel of the workspace with its totals in the window, filtered by activity. */
  channelTotals: (w: Window, match: ActivityMatch) => {
    const cond = matchSql(match, 'a');
    return all<Counts & { channel_id: string; channel_name: string }>(
      db,
      sql`with a as (select channel_id, ${sums} from activity_channel_daily where ${inWindow(w)} group by channel_id)
        select c.channel_id, c.name as channel_name, coalesce(a.messages, 0)::int as messages,
          coalesce(a.replies, 0)::int as replies, coalesce(a.reactions, 0)::int as reactions
        from ${slackChannels} c left join a on a.channel_id = c.channel_id
        where c.team_id = ${w.teamId} ${cond ? sql`and ${cond}` : sql``}
        order by coalesce(a.messages + a.replies + a.reactions, 0) desc, c.name, c.channel_id`,
    );
  },

  channelNames: (teamId: string, channels: string[]) =>
    all<{ channel_id: string; name: string }>(
      db,
      sql`select channel_id, name from ${slackChannels} where team_id = ${teamId}
        and channel_id = any(${sql.param(channels)}::text[])`,
    ),

  /**
   * Members (people, not bots) with their totals in the window: whole months and edge days of the
   * per-member rollups, or activity_daily when narrowed to channels. Without an activity condition only active members are listed;
   * with one, every member is a candidate (so "messages = 0" finds the quiet ones).
   */
  async memberTotals(
    w: Window,
    opts: {
      channels: string[] | null;
      tags: number[] | null;
      match: ActivityMatch;
      limit?: number;
      offset?: number;
      /**
       * Whether each row carries how many match in all (default). Counting reads every match before the
       * first row comes out; without it a page of the top members is a top-N sort (`total` is then 0).
       */
      counted?: boolean;
    },
  ): Promise<(MemberTotalsRow & { total: number })[]> {
    const source = opts.channels
      ? sql`select member_id, sum(messages)::int as messages, sum(replies)::int as replies,
          sum(reactions)::int as reactions from activity_daily
          where ${inWindow(w)} and channel_id = any(${sql.param(opts.channels)}::text[]) group by member_id`
      : await memberTotalsSource(db, w.teamId, w.fromDay, w.toDay);
    const cond = matchSql(opts.match, 'a');
    const page = sql`${opts.limit ? sql`limit ${opts.limit}` : sql``} ${opts.offset ? sql`offset ${opts.offset}` : sql``}`;
    const total = opts.counted === false ? sql`0` : sql`(count(*) over ())::int`;
    const tagged = (alias: string) =>
      opts.tags
        ? sql`and exists (select 1 from ${memberTags} mt where mt.team_id = ${w.teamId}
            and mt.member_id = ${sql.raw(alias)}.member_id and mt.tag_id = any(${sql.param(opts.tags)}::int[]))`
        : sql``;
    // Ranked and counted as narrow rows; names and e-mails are joined for the page only.
    const ranked =
      cond && holdsAtZero(opts.match)
        ? // Every member is a candidate: the condition holds for members without activity too.
          sql`select m.member_id, coalesce(a.messages, 0)::int as messages, coalesce(a.replies, 0)::int as replies,
            coalesce(a.reactions, 0)::int as reactions, ${total} as total
          from ${slackMembers} m left join a on a.member_id = m.member_id
          where m.team_id = ${w.teamId} and not m.is_bot and ${cond} ${tagged('m')}
          order by coalesce(a.messages + a.replies + a.reactions, 0) desc, m.member_id ${page}`
        : // Only members with activity can match: ranked from the totals alone (one row per member), bots left out.
          sql`select a.member_id, a.messages::int, a.replies::int, a.reactions::int, ${total} as total
          from a where a.messages + a.replies + a.reactions > 0 and ${notBot(w.teamId, 'a')} ${tagged('a')}
            ${cond ? sql`and ${cond}` : sql``}
          order by a.messages + a.replies + a.reactions desc, a.member_id ${page}`;
    return all<MemberTotalsRow & { total: number }>(
      db,
      sql`with a as (${source}), ranked as (${ranked})
        select p.member_id, coalesce(m.real_name, p.member_id) as real_name, coalesce(m.display_name, '') as display_name,
          coalesce(m.email, '') as email, p.messages, p.replies, p.reactions, p.total
        from ranked p left join ${slackMembers} m on m.team_id = ${w.teamId} and m.member_id = p.member_id
        order by p.messages + p.replies + p.reactions desc, p.member_id`,
    );
  },

  /** Distinct members with activity in the window (optionally in the given channels). */
  async activeMembers(w: Window): Promise<number> {
    const [r] = await all<{ n: number }>(
      db,
      w.fromDay === w.toDay
        ? sql`select coalesce(max(active_members), 0)::int as n from activity_team_daily
            where team_id = ${w.teamId} and day = ${w.fromDay}::date`
        : sql`select count(*)::int as n from (${await memberTotalsSource(db, w.teamId, w.fromDay, w.toDay)}) w
            where messages + replies + reactions > 0 and ${notBot(w.teamId, 'w')}`,
    );
    return r?.n ?? 0;
  },

  /** Distinct active members per local day (optionally only activity in the given channels). */
  activePerDay: (w: Window, channels: string[] | null) =>
    all<{ day: string; n: number }>(
      db,
      channels
        ? sql`select day::text as day, count(distinct member_id)::int as n from activity_daily
            where ${inWindow(w)} and channel_id = any(${sql.param(channels)}::text[])
              and messages + replies + reactions > 0 group by day`
        : sql`select day::text as day, active_members as n from activity_team_daily
            where ${inWindow(w)} and active_members > 0`,
    ),

  /** Joins and leaves of people (not bots) per local day from `fromDay` on (to the latest known). */
  eventsPerDay: (teamId: string, fromDay: string) =>
    all<{ day: string; joins: number; leaves: number }>(
      db,
      sql`select e.day::text as day, count(*) filter (where e.kind = 'join')::int as joins,
          count(*) filter (where e.kind = 'leave')::int as leaves
        from ${memberEvents} e
        where e.team_id = ${teamId} and e.day >= ${fromDay}::date and ${notBot(teamId, 'e')}
        group by e.day`,
    ),

  /** Joins and leaves of people between two instants (from exclusive, to inclusive). */
  async eventsBetween(teamId: string, from: Date, to: Date) {
    const [r] = await all<{ joins: number; leaves: number }>(
      db,
      sql`select count(*) filter (where e.kind = 'join')::int as joins,
          count(*) filter (where e.kind = 'leave')::int as leaves
        from ${memberEvents} e
        where e.team_id = ${teamId} and e.at > ${from.toISOString()}::timestamptz
          and e.at <= ${to.toISOString()}::timestamptz and ${notBot(teamId, 'e')}`,
    );
    return { joins: r?.joins ?? 0, leaves: r?.leaves ?? 0 };
  },

  /**
   * The first local day of the history Flywheel holds for a workspace (YYYY-MM-DD), null when it holds none:
   * the later of the history import's first day and the first day with any activity. Before it, Slack gave
   * Flywheel nothing: no messages, and no join dates (members who joined earlier have none).
   */
  async historyStart(teamId: string): Promise<string | null> {
    const [r] = await all<{ day: string | null }>(
      db,
      sql`select greatest(
          (select min(day) from activity_team_daily where team_id = ${teamId} and active_members > 0),
          (select (b.started_at - make_interval(days => b.days))::date from ${backfills} b
            where b.team_id = ${teamId})
        )::text as day`,
    );
    return r?.day ?? null;
  },

  /** People in the workspace now (not bots, not deactivated). */
  async currentMembers(teamId: string): Promise<number> {
    const [r] = await all<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${slackMembers} where team_id = ${teamId} and not is_bot and not deleted`,
    );
    return r?.n ?? 0;
  },

  /**
   * Messages + replies of admins and of everyone else in the window. Admins: Slack admins and owners, and
   * the Slack users linked to a Flywheel admin of this workspace.
   */
  async adminShare(w: Window): Promise<{ admin: number; members: number }> {
    const [r] = await all<{ admin: number; members: number }>(
      db,
      // Admins are few: their ids are hashed once and every total is tested against them.
      sql`with a as (select member_id, messages + replies as n
          from (${await memberTotalsSource(db, w.teamId, w.fromDay, w.toDay)}) w),
        adm as materialized (select m.member_id from ${slackMembers} m where m.team_id = ${w.teamId}
            and (m.is_admin or m.is_owner)
          union select wa.slack_user_id from ${workspaceAdmins} wa
            where wa.team_id = ${w.teamId} and wa.slack_user_id is not null)
        select coalesce(sum(x.n) filter (where x.adm), 0)::int as admin,
          coalesce(sum(x.n) filter (where not x.adm), 0)::int as members
        from (select a.n, a.member_id in (select member_id from adm) as adm
          from a where ${notBot(w.teamId, 'a')}) x`,
    );
    return { admin: r?.admin ?? 0, members: r?.members ?? 0 };
  },

  /** Top keywords of the window by messages containing them (keyword_daily). */
  topTerms: (w: Window, limit: number) =>
    all<{ term: string; n: number }>(
      db,
      sql`select term, sum(count)::int as n from keyword_daily where ${inWindow(w)}
        group by term having sum(count) > 0 order by n desc, term limit ${limit}`,
    ),
  /** One member's profile with all-time totals (member detail). */
  async memberInfo(teamId: string, memberId: string): Promise<MemberInfoRow | undefined> {
    const [row] = await typedRows<MemberInfoRow>(
      db,
      sql`select m.member_id, m.real_name, m.display_name, coalesce(m.email, '') as email, m.avatar_url,
        m.is_admin, m.is_owner, m.deleted,
        (extract(epoch from m.joined_at) * 1000000)::bigint::text as join_time,
        (extract(epoch from m.last_active_at) * 1000000)::bigint::text as last_active,
        (extract(epoch from m.left_at) * 1000000)::bigint::text as left_at,
        coalesce((select sum(messages) from activity_daily a where a.team_id = m.team_id and a.member_id = m.member_id), 0)::int as messages,
        coalesce((select sum(replies) from activity_daily a where a.team_id = m.team_id and a.member_id = m.member_id), 0)::int as replies,
        coalesce((select sum(reactions) from activity_daily a where a.team_id = m.team_id and a.member_id = m.member_id), 0)::int as reactions
      from ${slackMembers} m where m.team_id = ${teamId} and m.member_id = ${memberId} and not m.is_bot`,
    );
    return row;
  },

  /** One member's totals per local day of a window (member detail). */
  memberPerDay: (teamId: string, memberId: string, fromDay: string, toDay: string) =>
    typedRows<{ day: string; messages: number; replies: number; reactions: number }>(
      db,
      sql`select day::text as day, sum(messages)::int as messages, sum(replies)::int as replies,
          sum(reactions)::int as reactions
        from activity_daily where team_id = ${teamId} and member_id = ${memberId}
          and day >= ${fromDay}::date and day <= ${toDay}::date
        group by day order by day`,
    ),

  /** One member's totals per channel over a window (member detail). */
  memberPerChannel: (teamId: string, memberId: string, fromDay: string, toDay: string) =>
    typedRows<{
      channel_id: string;
      channel_name: string | null;
      messages: number;
      replies: number;
      reactions: number;
    }>(
      db,
      sql`select a.channel_id, c.name as channel_name, sum(a.messages)::int as messages,
          sum(a.replies)::int as replies, sum(a.reactions)::int as reactions
        from activity_daily a left join ${slackChannels} c on c.team_id = a.team_id and c.channel_id = a.channel_id
        where a.team_id = ${teamId} and a.member_id = ${memberId}
          and a.day >= ${fromDay}::date and a.day <= ${toDay}::date
        group by a.channel_id, c.name
        having sum(a.messages) + sum(a.replies) + sum(a.reactions) > 0
        order by sum(a.messages) desc, c.name`,
    ),

  /** Members with their activity since `sinceDay` (local day, from the rollups) and all-time timestamps. */
  async membersSince(teamId: string, sinceDay: string): Promise<MemberListRow[]> {
    const r = await typedResult<MemberListRow>(
      db,
      sql`
      select m.member_id, m.real_name, m.display_name, m.email, m.avatar_url, m.is_admin, m.deleted,
        (extract(epoch from m.joined_at) * 1000000)::bigint::text as join_time,
        (extract(epoch from m.last_active_at) * 1000000)::bigint::text as last_active,
        coalesce(a.messages, 0)::int as messages, coalesce(a.replies, 0)::int as replies, coalesce(a.reactions, 0)::int as reactions
      from ${slackMembers} m
      left join (
        select member_id, sum(messages) as messages, sum(replies) as replies, sum(reactions) as reactions
        from activity_daily where team_id = ${teamId} and day >= ${sinceDay}::date group by member_id
      ) a on a.member_id = m.member_id
      where m.team_id = ${teamId} and not m.is_bot
      order by m.real_name, m.member_id`,
    );
    return r.rows;
  },
});

export type ActivityReads = ReturnType<typeof activityReads>;

/**
 * Members who became active again (workflows' activity trigger): active since `from`, with no activity in the
 * `days` local days (in `tz`) before that day (activity_member_daily; for 0 days: each day a member is active).
 * One row per member and local day. Bots, Slackbot and deactivated members are left out. Runs in the caller's
 * transaction.
 */
export async function membersActiveAgain(
  tx: Tx,
  teamId: string,
  days: number,
  from: Date,
  tz: string,
): Promise<{ member_id: string; day: string }[]> {
  return await typedRows<{ member_id: string; day: string }>(
    tx,
    sql`select m.member_id, (m.last_active_at at time zone ${tz})::date::text as day
      from ${slackMembers} m
      where m.team_id = ${teamId} and not m.is_bot and not m.deleted and m.member_id <> 'USLACKBOT'
        and m.last_active_at > ${from.toISOString()}::timestamptz
        and not exists (select 1 from activity_member_daily d
          where d.team_id = m.team_id and d.member_id = m.member_id
            and d.day >= (m.last_active_at at time zone ${tz})::date - ${days}::int
            and d.day < (m.last_active_at at time zone ${tz})::date
            and d.messages + d.replies + d.reactions > 0)`,
  );
}
