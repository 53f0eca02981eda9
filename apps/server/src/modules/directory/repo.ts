import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedResult } from '../../db/sql.ts';
import type { MemberCountsRow } from '../workspace-data/member-dto.ts';

export type MemberListRow = MemberCountsRow;

/** Reads of the workspace's people and channels, for pickers, search and the top bar. */
export const directoryRepo = (db: Db) => ({
  /** Members with their activity since `sinceDay` (local day, from the rollups) and all-time timestamps. */
  async members(teamId: string, sinceDay: string): Promise<MemberListRow[]> {
    const r = await typedResult<MemberListRow>(
      db,
      sql`
      select m.member_id, m.real_name, m.display_name, m.email, m.avatar_url, m.is_admin, m.deleted,
        (extract(epoch from m.joined_at) * 1000000)::bigint::text as join_time,
        (extract(epoch from m.last_active_at) * 1000000)::bigint::text as last_active,
        coalesce(a.messages, 0)::int as messages, coalesce(a.replies, 0)::int as replies, coalesce(a.reactions, 0)::int as reactions
      from slack_members m
      left join (
        select member_id, sum(messages) as messages, sum(replies) as replies, sum(reactions) as reactions
        from activity_daily where team_id = ${teamId} and day >= ${sinceDay}::date group by member_id
      ) a on a.member_id = m.member_id
      where m.team_id = ${teamId} and not m.is_bot
      order by m.real_name, m.member_id`,
    );
    return r.rows;
  },
  async memberNames(teamId: string, memberIds: string[]): Promise<Map<string, string>> {
    if (memberIds.length === 0) return new Map();
    const r = await typedResult<{
      member_id: string;
      real_name: string;
    }>(
      db,
      sql`select member_id, real_name from slack_members
      where team_id = ${teamId} and member_id = any(${sql.param(memberIds)}::text[])`,
    );
    return new Map(r.rows.map((row) => [row.member_id, row.real_name]));
  },
  async channels(teamId: string) {
    const r = await typedResult<{
      channel_id: string;
      channel_name: string;
      is_private: boolean;
      is_archived: boolean;
    }>(
      db,
      sql`select channel_id, name as channel_name, is_private, is_archived from slack_channels
      where team_id = ${teamId} order by name`,
    );
    return r.rows;
  },
});
