import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows } from '../../db/sql.ts';
import type { MemberCountsRow } from '../workspace-data/member-dto.ts';

export type MemberInfoRow = MemberCountsRow & { email: string; is_owner: boolean; left_at: string | null };

export type ActionRow = {
  ts: string;
  at: string;
  channel_id: string;
  channel_name: string | null;
  content: string;
  activity_type: 'message' | 'reply' | 'reaction';
};

/** Countable message subtypes (the same ones the rollups count). */
const COUNTED = sql`(m.subtype is null or m.subtype in ('thread_broadcast', 'file_share', 'me_message'))`;

/** One member's profile and activity. Counts come from the rollups; the action log reads the member's own rows. */
export const memberRepo = (db: Db) => ({
  async info(teamId: string, memberId: string): Promise<MemberInfoRow | undefined> {
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
      from slack_members m where m.team_id = ${teamId} and m.member_id = ${memberId} and not m.is_bot`,
    );
    return row;
  },

  async exists(teamId: string, memberId: string): Promise<boolean> {
    const r = await typedRows<unknown>(
      db,
      sql`select 1 from slack_members where team_id = ${teamId} and member_id = ${memberId} and not is_bot`,
    );
    return r.length > 0;
  },

  channels: (teamId: string, memberId: string) =>
    typedRows<{ channel_id: string; channel_name: string }>(
      db,
      sql`select c.channel_id, c.name as channel_name from slack_channel_members cm
        join slack_channels c on c.team_id = cm.team_id and c.channel_id = cm.channel_id
        where cm.team_id = ${teamId} and cm.member_id = ${memberId} order by c.name`,
    ),

  daily: (teamId: string, memberId: string, fromDay: string, toDay: string) =>
    typedRows<{ day: string; messages: number; replies: number; reactions: number }>(
      db,
      sql`select day::text as day, sum(messages)::int as messages, sum(replies)::int as replies,
          sum(reactions)::int as reactions
        from activity_daily where team_id = ${teamId} and member_id = ${memberId}
          and day >= ${fromDay}::date and day <= ${toDay}::date
        group by day order by day`,
    ),

  perChannel: (teamId: string, memberId: string, fromDay: string, toDay: string) =>
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
        from activity_daily a left join slack_channels c on c.team_id = a.team_id and c.channel_id = a.channel_id
        where a.team_id = ${teamId} and a.member_id = ${memberId}
          and a.day >= ${fromDay}::date and a.day <= ${toDay}::date
        group by a.channel_id, c.name
        having sum(a.messages) + sum(a.replies) + sum(a.reactions) > 0
        order by sum(a.messages) desc, c.name`,
    ),

  /** Messages, replies and reactions of the member since `since`, newest first. */
  actions: (teamId: string, memberId: string, since: Date, limit: number) =>
    typedRows<ActionRow>(
      db,
      sql`select * from (
          select m.ts, (extract(epoch from m.posted_at) * 1000)::bigint::text as at, m.channel_id, c.name as channel_name,
            m.text as content, case when m.is_reply then 'reply' else 'message' end as activity_type
          from slack_messages m left join slack_channels c on c.team_id = m.team_id and c.channel_id = m.channel_id
          where m.team_id = ${teamId} and m.user_id = ${memberId} and m.posted_at >= ${since.toISOString()}::timestamptz
            and m.deleted_at is null and ${COUNTED}
          union all
          select r.ts, (extract(epoch from r.reacted_at) * 1000)::bigint::text as at, r.channel_id, c.name as channel_name,
            ':' || r.name || ': on "' || coalesce(m.text, '') || '"' as content, 'reaction' as activity_type
          from slack_reactions r
            left join slack_channels c on c.team_id = r.team_id and c.channel_id = r.channel_id
            left join slack_messages m on m.team_id = r.team_id and m.channel_id = r.channel_id and m.ts = r.ts
          where r.team_id = ${teamId} and r.user_id = ${memberId} and r.removed_at is null
            and r.reacted_at >= ${since.toISOString()}::timestamptz
        ) x order by at::bigint desc, ts desc limit ${limit}`,
    ),

  memberNames: async (teamId: string, ids: string[]) =>
    ids.length === 0
      ? new Map<string, string>()
      : new Map(
          (
            await typedRows<{ id: string; name: string }>(
              db,
              sql`select member_id as id, coalesce(nullif(real_name, ''), display_name) as name
                from slack_members where team_id = ${teamId} and member_id = any(${sql.param(ids)}::text[])`,
            )
          ).map((r) => [r.id, r.name]),
        ),

  channelNames: async (teamId: string, ids: string[]) =>
    ids.length === 0
      ? new Map<string, string>()
      : new Map(
          (
            await typedRows<{ id: string; name: string }>(
              db,
              sql`select channel_id as id, name from slack_channels
                where team_id = ${teamId} and channel_id = any(${sql.param(ids)}::text[])`,
            )
          ).map((r) => [r.id, r.name]),
        ),
});
