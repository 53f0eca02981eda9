import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';
import type { SortDirection, ThreadSort } from '@flywheel/shared/conversations';
import { memberNames as memberNamesOf, channelNames as channelNamesOf } from '../workspace-data/names.ts';
import { workspaces } from '../workspaces/table.ts';
import { slackChannels, slackMembers, slackMessages, slackReactions } from '../workspace-data/table.ts';

/*
 * The threads (history.ts): a window's threads in the order asked, one message, its replies and reactions; the
 * names and the workspace core.ts shows them with; a mention seen and a pin changed (service.ts). The full-text
 * search and the Mentions panel's reads are search-repo.ts; the Questions list's, questions-repo.ts.
 */

/** A message as the lists show it, before names are made readable. */
export type MessageRow = {
  channel_id: string;
  channel_name: string | null;
  ts: string;
  thread_ts: string | null;
  is_reply: boolean;
  user_id: string | null;
  sender: string | null;
  subtype: string | null;
  text: string;
  /** Epoch milliseconds, as text (bigint). */
  at: string;
  edited: boolean;
};
export type ThreadRow = MessageRow & {
  replies: number;
  reactions: number;
  is_pinned: boolean;
  /** The value sorted by (as text), for the next page's cursor; null when sorted by time. */
  sort_key: string | null;
};
export type MentionRow = MessageRow & { seen: boolean };

/** Where a page of newest-first messages resumes: after this message. */
export type PagePosition = { at: Date; ts: string; channelId: string };
/** Where a page of sorted threads resumes: after this thread (`key`: its sort value, when not sorted by time). */
export type ThreadPosition = PagePosition & { key: string | number | null };

export const MESSAGE_COLUMNS = sql`m.channel_id, c.name as channel_name, m.ts, m.thread_ts, m.is_reply, m.user_id,
  coalesce(nullif(u.real_name, ''), nullif(u.display_name, '')) as sender, m.subtype, m.text,
  (extract(epoch from m.posted_at) * 1000)::bigint::text as at, m.edited_at is not null as edited`;
export const NAMES = sql`left join ${slackChannels} c on c.team_id = m.team_id and c.channel_id = m.channel_id
  left join ${slackMembers} u on u.team_id = m.team_id and u.member_id = m.user_id`;

/** A thread's live replies, live reactions on its parent, and whether it is pinned (m: the parent). */
const REPLIES = sql`(select count(*) from ${slackMessages} r where r.team_id = m.team_id and r.channel_id = m.channel_id
            and r.thread_ts = m.ts and r.is_reply and r.deleted_at is null)::int`;
const REACTIONS = sql`(select count(*) from ${slackReactions} x where x.team_id = m.team_id and x.channel_id = m.channel_id
            and x.ts = m.ts and x.removed_at is null)::int`;
export const THREAD_COUNTS = sql`${REPLIES} as replies, ${REACTIONS} as reactions,
          coalesce((select p.pinned from conversation_pins p where p.team_id = m.team_id
            and p.channel_id = m.channel_id and p.ts = m.ts), false) as is_pinned`;

/**
 * A sort value other than time for each parent `m` of a window, and what it joins. Names compare lower-cased,
 * byte by byte (collate "C"), so the order and a cursor's comparison are the same on every database; the
 * sender falls back as the list shows it (Bot, the user id, Unknown) and the channel to its id. Replies are
 * counted in one pass over the replies posted since the window began (a reply comes after its parent), not
 * thread by thread: at 300,000 threads in a window that is a few times faster. Reactions are counted per
 * thread through their key (their time says nothing of the message's).
 */
function sortKeyOf(sort: Exclude<ThreadSort, 'time'>, teamId: string, from: Date, channelId: string | null) {
  switch (sort) {
    case 'sender':
      return {
        join: sql`left join ${slackMembers} u on u.team_id = m.team_id and u.member_id = m.user_id`,
        key: sql`lower(coalesce(nullif(u.real_name, ''), nullif(u.display_name, ''),
          case when m.subtype = 'bot_message' then 'Bot' end, m.user_id, 'Unknown')) collate "C"`,
      };
    case 'channel':
      return {
        join: sql`left join ${slackChannels} c on c.team_id = m.team_id and c.channel_id = m.channel_id`,
        key: sql`lower(coalesce(c.name, m.channel_id)) collate "C"`,
      };
    case 'replies':
      return {
        join: sql`left join (select r.channel_id, r.thread_ts, count(*)::int as n from ${slackMessages} r
            where r.team_id = ${teamId} and r.is_reply and r.deleted_at is null
              and r.posted_at >= ${from.toISOString()}::timestamptz
              ${channelId ? sql`and r.channel_id = ${channelId}` : sql``}
            group by r.channel_id, r.thread_ts) rc on rc.channel_id = m.channel_id and rc.thread_ts = m.ts`,
        key: sql`coalesce(rc.n, 0)`,
      };
    case 'reactions':
      return { join: sql``, key: REACTIONS };
  }
}

/** The conversation workbench's reads over workspace-data's facts, and its own two tables. */
export const conversationsRepo = (db: Db) => {
  return {
    /**
     * Top-level messages of the workspace (or one channel) posted in [from, to), with their live replies and
     * reactions counted, a page in the order asked. By time: the page is found through
     * slack_messages_posted_idx (workspace) or slack_messages_channel_posts_idx (channel), then each row's
     * counts through the thread index and the reactions' key. By another key: that key is worked out for every
     * thread of the window (the order is the whole window's, not a page's), the page cut from it, and the
     * other columns read for the page's rows only. Ties fall back to time, ts and channel, the cursor's tail.
     */
    threads: (
      teamId: string,
      w: {
        from: Date;
        to: Date;
        channelId: string | null;
        sort: ThreadSort;
        direction: SortDirection;
        after: ThreadPosition | null;
        limit: number;
      },
    ) => {
      const desc = w.direction === 'desc';
      const dir = desc ? sql`desc` : sql`asc`;
      const cmp = desc ? sql`<` : sql`>`;
      const top = sql`m.team_id = ${teamId} and not m.is_reply and m.deleted_at is null
            and m.posted_at >= ${w.from.toISOString()}::timestamptz and m.posted_at < ${w.to.toISOString()}::timestamptz
            ${w.channelId ? sql`and m.channel_id = ${w.channelId}` : sql``}`;
      const tail = (p: ThreadPosition) => sql`${p.at.toISOString()}::timestamptz, ${p.ts}, ${p.channelId}`;
      if (w.sort === 'time')
        return typedRows<ThreadRow>(
          db,
          sql`with page as (
          select m.* from ${slackMessages} m
          where ${top}
            ${w.after ? sql`and (m.posted_at, m.ts, m.channel_id) ${cmp} (${tail(w.after)})` : sql``}
          order by m.posted_at ${dir}, m.ts ${dir}, m.channel_id ${dir} limit ${w.limit})
        select ${MESSAGE_COLUMNS}, ${THREAD_COUNTS}, null as sort_key
        from page m ${NAMES}
        order by m.posted_at ${dir}, m.ts ${dir}, m.channel_id ${dir}`,
        );
      const { join, key } = sortKeyOf(w.sort, teamId, w.from, w.channelId);
      const order = sql`k.sort_key ${dir}, k.posted_at ${dir}, k.ts ${dir}, k.channel_id ${dir}`;
      return typedRows<ThreadRow>(
        db,
        sql`with keyed as (
          select m.channel_id, m.ts, m.posted_at, ${key} as sort_key
          from ${slackMessages} m ${join}
          where ${top}),
        page as (
          select k.* from keyed k
          ${w.after ? sql`where (k.sort_key, k.posted_at, k.ts, k.channel_id) ${cmp} (${w.sort === 'replies' || w.sort === 'reactions' ? sql`${w.after.key}::int` : sql`${w.after.key}::text`}, ${tail(w.after)})` : sql``}
          order by ${order} limit ${w.limit})
        select ${MESSAGE_COLUMNS}, ${THREAD_COUNTS}, k.sort_key::text as sort_key
        from page k
        join ${slackMessages} m on m.team_id = ${teamId} and m.channel_id = k.channel_id and m.ts = k.ts
        ${NAMES}
        order by ${order}`,
      );
    },

    /** The channels holding a live message with this ts (a ts is unique within a channel only). */
    channelsWithTs: (teamId: string, ts: string, postedAt: Date, channelId: string | null) =>
      typedRows<{ channel_id: string; is_reply: boolean; thread_ts: string | null }>(
        db,
        sql`select m.channel_id, m.is_reply, m.thread_ts from ${slackMessages} m
        where m.team_id = ${teamId} and m.ts = ${ts} and m.deleted_at is null
          ${channelId ? sql`and m.channel_id = ${channelId}` : sql`and m.posted_at = ${postedAt.toISOString()}::timestamptz`}
        limit 2`,
      ),

    /** One live message with names. */
    message: (teamId: string, channelId: string, ts: string) =>
      firstRow<MessageRow>(
        db,
        sql`select ${MESSAGE_COLUMNS} from ${slackMessages} m ${NAMES}
        where m.team_id = ${teamId} and m.channel_id = ${channelId} and m.ts = ${ts} and m.deleted_at is null`,
      ),

    /** The live replies of a thread, oldest first. */
    replies: (teamId: string, channelId: string, threadTs: string) =>
      typedRows<MessageRow>(
        db,
        sql`select ${MESSAGE_COLUMNS} from ${slackMessages} m ${NAMES}
        where m.team_id = ${teamId} and m.channel_id = ${channelId} and m.thread_ts = ${threadTs}
          and m.is_reply and m.deleted_at is null
        order by m.posted_at, m.ts`,
      ),

    /** The live reactions on one message, in the order they were made. */
    reactions: (teamId: string, channelId: string, ts: string) =>
      typedRows<{ user_id: string; name: string | null; reaction: string }>(
        db,
        sql`select x.user_id, coalesce(nullif(u.real_name, ''), nullif(u.display_name, '')) as name,
          x.name as reaction
        from ${slackReactions} x
        left join ${slackMembers} u on u.team_id = x.team_id and u.member_id = x.user_id
        where x.team_id = ${teamId} and x.channel_id = ${channelId} and x.ts = ${ts} and x.removed_at is null
        order by x.reacted_at, x.user_id, x.name`,
      ),

    memberNames: (teamId: string, ids: string[]) => memberNamesOf(db, teamId, ids),

    channelNames: (teamId: string, ids: string[]) => channelNamesOf(db, teamId, ids),

    workspace: (teamId: string) =>
      firstRow<{ domain: string; bot_user_id: string | null }>(
        db,
        sql`select domain, bot_user_id from ${workspaces} where team_id = ${teamId}`,
      ),

    /** Marks a mention answered (the first answer is kept). */
    async markSeen(
      teamId: string,
      channelId: string,
      ts: string,
      how: 'reply' | 'reaction',
      by: string | null,
    ): Promise<void> {
      await db.execute(sql`insert into conversation_mentions_seen (team_id, channel_id, ts, how, seen_by)
      values (${teamId}, ${channelId}, ${ts}, ${how}, ${by}) on conflict do nothing`);
    },

    /** A pin_added / pin_removed event: applied unless a later one already was. */
    async setPinned(
      tx: Tx,
      p: { teamId: string; channelId: string; ts: string; pinned: boolean; by: string | null; at: Date },
    ): Promise<void> {
      await tx.execute(sql`insert into conversation_pins (team_id, channel_id, ts, pinned_by, changed_at, pinned)
      values (${p.teamId}, ${p.channelId}, ${p.ts}, ${p.by}, ${p.at.toISOString()}::timestamptz, ${p.pinned})
      on conflict (team_id, channel_id, ts) do update
        set pinned = excluded.pinned, pinned_by = excluded.pinned_by, changed_at = excluded.changed_at
        where conversation_pins.changed_at <= excluded.changed_at`);
    },
  };
};
export type ConversationsRepo = ReturnType<typeof conversationsRepo>;
