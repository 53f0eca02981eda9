import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';

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
export type ThreadRow = MessageRow & { replies: number; reactions: number; is_pinned: boolean };
export type MentionRow = MessageRow & { seen: boolean };

/** Where a page of newest-first messages resumes: after this message. */
export type PagePosition = { at: Date; ts: string; channelId: string };

/**
 * The full-text expression of slack_messages_text_idx (workspace-data): the same expression here, so the GIN
 * index answers. 'english' is built into PostgreSQL and PGlite alike.
 */
const FTS = sql`to_tsvector('english', m.text)`;

const MESSAGE_COLUMNS = sql`m.channel_id, c.name as channel_name, m.ts, m.thread_ts, m.is_reply, m.user_id,
  coalesce(nullif(u.real_name, ''), nullif(u.display_name, '')) as sender, m.subtype, m.text,
  (extract(epoch from m.posted_at) * 1000)::bigint::text as at, m.edited_at is not null as edited`;
const NAMES = sql`left join slack_channels c on c.team_id = m.team_id and c.channel_id = m.channel_id
  left join slack_members u on u.team_id = m.team_id and u.member_id = m.user_id`;
const after = (p: PagePosition | null) =>
  p
    ? sql`and (m.posted_at, m.ts, m.channel_id) < (${p.at.toISOString()}::timestamptz, ${p.ts}, ${p.channelId})`
    : sql``;
const NEWEST_FIRST = sql`order by m.posted_at desc, m.ts desc, m.channel_id desc`;

/** The conversation workbench's reads over workspace-data's facts, and its own two tables. */
export const conversationsRepo = (db: Db) => ({
  /**
   * Top-level messages of the workspace (or one channel) posted in [from, to), newest first, with their live
   * replies and reactions counted: the page is found through slack_messages_posted_idx (workspace) or
   * slack_messages_channel_posts_idx (channel), then each row's counts through the thread index and the
   * reactions' key.
   */
  threads: (
    teamId: string,
    w: { from: Date; to: Date; channelId: string | null; after: PagePosition | null; limit: number },
  ) =>
    typedRows<ThreadRow>(
      db,
      sql`with page as (
          select m.* from slack_messages m
          where m.team_id = ${teamId} and not m.is_reply and m.deleted_at is null
            and m.posted_at >= ${w.from.toISOString()}::timestamptz and m.posted_at < ${w.to.toISOString()}::timestamptz
            ${w.channelId ? sql`and m.channel_id = ${w.channelId}` : sql``}
            ${after(w.after)}
          ${NEWEST_FIRST} limit ${w.limit})
        select ${MESSAGE_COLUMNS},
          (select count(*) from slack_messages r where r.team_id = m.team_id and r.channel_id = m.channel_id
            and r.thread_ts = m.ts and r.is_reply and r.deleted_at is null)::int as replies,
          (select count(*) from slack_reactions x where x.team_id = m.team_id and x.channel_id = m.channel_id
            and x.ts = m.ts and x.removed_at is null)::int as reactions,
          coalesce((select p.pinned from conversation_pins p where p.team_id = m.team_id
            and p.channel_id = m.channel_id and p.ts = m.ts), false) as is_pinned
        from page m ${NAMES}
        ${NEWEST_FIRST}`,
    ),

  /** The channels holding a live message with this ts (a ts is unique within a channel only). */
  channelsWithTs: (teamId: string, ts: string, postedAt: Date, channelId: string | null) =>
    typedRows<{ channel_id: string; is_reply: boolean; thread_ts: string | null }>(
      db,
      sql`select m.channel_id, m.is_reply, m.thread_ts from slack_messages m
        where m.team_id = ${teamId} and m.ts = ${ts} and m.deleted_at is null
          ${channelId ? sql`and m.channel_id = ${channelId}` : sql`and m.posted_at = ${postedAt.toISOString()}::timestamptz`}
        limit 2`,
    ),

  /** One live message with names. */
  message: (teamId: string, channelId: string, ts: string) =>
    firstRow<MessageRow>(
      db,
      sql`select ${MESSAGE_COLUMNS} from slack_messages m ${NAMES}
        where m.team_id = ${teamId} and m.channel_id = ${channelId} and m.ts = ${ts} and m.deleted_at is null`,
    ),

  /** The live replies of a thread, oldest first. */
  replies: (teamId: string, channelId: string, threadTs: string) =>
    typedRows<MessageRow>(
      db,
      sql`select ${MESSAGE_COLUMNS} from slack_messages m ${NAMES}
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
        from slack_reactions x
        left join slack_members u on u.team_id = x.team_id and u.member_id = x.user_id
        where x.team_id = ${teamId} and x.channel_id = ${channelId} and x.ts = ${ts} and x.removed_at is null
        order by x.reacted_at, x.user_id, x.name`,
    ),

  /**
   * Live messages matching a full-text query, newest first. PostgreSQL picks the GIN index for rare words and
   * the newest-first index (checking each row's text) for common ones.
   */
  search: (teamId: string, q: SQL, channelId: string | null, limit: number) =>
    typedRows<MessageRow>(
      db,
      sql`select ${MESSAGE_COLUMNS} from slack_messages m ${NAMES}
        where m.team_id = ${teamId} and m.deleted_at is null and ${FTS} @@ ${q}
          ${channelId ? sql`and m.channel_id = ${channelId}` : sql``}
        ${NEWEST_FIRST} limit ${limit}`,
    ),

  /**
   * Live messages mentioning any of `ids` (`<@id>` tokens): found through the full-text index (a mention's id
   * is a word of its text), then checked for the token itself.
   */
  mentions: (
    teamId: string,
    f: {
      ids: string[];
      q: SQL | null;
      userId: string | null;
      channelId: string | null;
      after: PagePosition | null;
      limit: number;
    },
  ) => {
    const words = f.ids.map((id) => id.toLowerCase().replace(/[^a-z0-9]/g, '')).filter(Boolean);
    const tokens = f.ids.map((id) => id.replace(/[^A-Za-z0-9]/g, '')).filter(Boolean);
    return typedRows<MentionRow>(
      db,
      sql`select ${MESSAGE_COLUMNS},
          exists (select 1 from conversation_mentions_seen s where s.team_id = m.team_id
            and s.channel_id = m.channel_id and s.ts = m.ts) as seen
        from slack_messages m ${NAMES}
        where m.team_id = ${teamId} and m.deleted_at is null
          and ${FTS} @@ to_tsquery('english', ${words.join(' | ')})
          and m.text ~ ${`<@(${tokens.join('|')})[>|]`}
          ${f.q ? sql`and ${FTS} @@ ${f.q}` : sql``}
          ${f.userId ? sql`and m.user_id = ${f.userId}` : sql``}
          ${f.channelId ? sql`and m.channel_id = ${f.channelId}` : sql``}
          ${after(f.after)}
        ${NEWEST_FIRST} limit ${f.limit}`,
    );
  },

  /** Who posted the newest mentions, and where (the Mentions panel's dropdowns). */
  mentionAuthorsAndChannels: (teamId: string, ids: string[]) => {
    const words = ids.map((id) => id.toLowerCase().replace(/[^a-z0-9]/g, '')).filter(Boolean);
    const tokens = ids.map((id) => id.replace(/[^A-Za-z0-9]/g, '')).filter(Boolean);
    return typedRows<{
      user_id: string | null;
      sender: string | null;
      channel_id: string;
      channel_name: string | null;
    }>(
      db,
      sql`select distinct m.user_id, coalesce(nullif(u.real_name, ''), nullif(u.display_name, '')) as sender,
          m.channel_id, c.name as channel_name
        from (select m.* from slack_messages m
          where m.team_id = ${teamId} and m.deleted_at is null
            and ${FTS} @@ to_tsquery('english', ${words.join(' | ')})
            and m.text ~ ${`<@(${tokens.join('|')})[>|]`}
          order by m.posted_at desc limit 2000) m ${NAMES}`,
    );
  },

  /** Whom the Mentions panel looks for: Slack admins and owners, the admins who use Flywheel, the bot. */
  mentionTargets: (teamId: string) =>
    typedRows<{ id: string }>(
      db,
      sql`select member_id as id from slack_members
          where team_id = ${teamId} and (is_admin or is_owner) and not deleted
        union select slack_user_id from workspace_admins where team_id = ${teamId} and slack_user_id is not null
        union select bot_user_id from workspaces where team_id = ${teamId} and bot_user_id is not null`,
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

  workspace: (teamId: string) =>
    firstRow<{ domain: string; bot_user_id: string | null }>(
      db,
      sql`select domain, bot_user_id from workspaces where team_id = ${teamId}`,
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
});
export type ConversationsRepo = ReturnType<typeof conversationsRepo>;
