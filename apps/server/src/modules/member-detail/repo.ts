import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows } from '../../db/sql.ts';
import { memberNames as memberNamesOf, channelNames as channelNamesOf } from '../workspace-data/names.ts';
import { messagePins } from '../conversations/table.ts';
import {
  channelMembers,
  slackChannels,
  slackMembers,
  slackMessages,
  slackReactions,
} from '../workspace-data/table.ts';

export type ActionRow = {
  ts: string;
  at: string;
  channel_id: string;
  channel_name: string | null;
  content: string;
  activity_type: 'message' | 'reply' | 'reaction';
  /** Whether the message is pinned in its channel (false for reactions). */
  is_pinned: boolean;
};

/** Countable message subtypes (the same ones the rollups count). */
const COUNTED = sql`(m.subtype is null or m.subtype in ('thread_broadcast', 'file_share', 'me_message'))`;

/** One member's profile and activity. Counts come from the rollups; the action log reads the member's own rows. */
export const memberRepo = (db: Db) => ({
  async exists(teamId: string, memberId: string): Promise<boolean> {
    const r = await typedRows<unknown>(
      db,
      sql`select 1 from ${slackMembers} where team_id = ${teamId} and member_id = ${memberId} and not is_bot`,
    );
    return r.length > 0;
  },

  channels: (teamId: string, memberId: string) =>
    typedRows<{ channel_id: string; channel_name: string }>(
      db,
      sql`select c.channel_id, c.name as channel_name from ${channelMembers} cm
        join ${slackChannels} c on c.team_id = cm.team_id and c.channel_id = cm.channel_id
        where cm.team_id = ${teamId} and cm.member_id = ${memberId} order by c.name`,
    ),

  /** Messages, replies and reactions of the member since `since`, newest first. */
  actions: (teamId: string, memberId: string, since: Date, limit: number) =>
    typedRows<ActionRow>(
      db,
      sql`select * from (
          select m.ts, (extract(epoch from m.posted_at) * 1000)::bigint::text as at, m.channel_id, c.name as channel_name,
            m.text as content, case when m.is_reply then 'reply' else 'message' end as activity_type,
            coalesce((select p.pinned from ${messagePins} p where p.team_id = m.team_id
              and p.channel_id = m.channel_id and p.ts = m.ts), false) as is_pinned
          from ${slackMessages} m left join ${slackChannels} c on c.team_id = m.team_id and c.channel_id = m.channel_id
          where m.team_id = ${teamId} and m.user_id = ${memberId} and m.posted_at >= ${since.toISOString()}::timestamptz
            and m.deleted_at is null and ${COUNTED}
          union all
          select r.ts, (extract(epoch from r.reacted_at) * 1000)::bigint::text as at, r.channel_id, c.name as channel_name,
            ':' || r.name || ': on "' || coalesce(m.text, '') || '"' as content, 'reaction' as activity_type,
            false as is_pinned
          from ${slackReactions} r
            left join ${slackChannels} c on c.team_id = r.team_id and c.channel_id = r.channel_id
            left join ${slackMessages} m on m.team_id = r.team_id and m.channel_id = r.channel_id and m.ts = r.ts
          where r.team_id = ${teamId} and r.user_id = ${memberId} and r.removed_at is null
            and r.reacted_at >= ${since.toISOString()}::timestamptz
        ) x order by at::bigint desc, ts desc limit ${limit}`,
    ),

  memberNames: (teamId: string, ids: string[]) => memberNamesOf(db, teamId, ids),

  channelNames: (teamId: string, ids: string[]) => channelNamesOf(db, teamId, ids),
});
