import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';
import type { SortDirection, ThreadSort } from '@flywheel/shared/conversations';
import { memberNames as memberNamesOf, channelNames as channelNamesOf } from '../workspace-data/names.ts';
import { workspaceAdmins, workspaces } from '../workspaces/table.ts';
import { slackChannels, slackMembers, slackMessages, slackReactions } from '../workspace-data/table.ts';

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

/**
 * The full-text expression of slack_messages_text_idx (workspace-data): the same expression here, so the GIN
 * index answers. 'english' is built into PostgreSQL and PGlite alike.
 */
const FTS = sql`to_tsvector('english', m.text)`;

export const MESSAGE_COLUMNS = sql`m.channel_id, c.name as channel_name, m.ts, m.thread_ts, m.is_reply, m.user_id,
  coalesce(nullif(u.real_name, ''), nullif(u.display_name, '')) as sender, m.subtype, m.text,
  (extract(epoch from m.posted_at) * 1000)::bigint::text as at, m.edited_at is not null as edited`;
export const NAMES = sql`left join ${slackChannels} c on c.team_id = m.team_id and c.channel_id = m.channel_id
  left join ${slackMembers} u on u.team_id = m.team_id and u.member_id = m.user_id`;
const after = (p: PagePosition | null) =>
  p
    ? sql`and (m.posted_at, m.ts, m.channel_id) < (${p.at.toISOString()}::timestamptz, ${p.ts}, ${p.channelId})`
    : sql``;
const NEWEST_FIRST = sql`order by m.posted_at desc, m.ts desc, m.channel_id desc`;

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

/** How many of a workspace's newest messages a search checks one by one before asking the GIN index. */
export const RECENT_SCAN = 2000;

/**
 * Past those, how far back (days before the oldest of them) each GIN step looks; then everything older. A
 * step reads only its days' matches from the table, so a word in 1% of messages costs one day's worth of
 * rows, not all of them, and a rare word costs a few cheap steps.
 */
export const SEARCH_SLICES_DAYS = [1, 4, 14, 45, 135];
const DAY_MS = 86_400_000;

/**
 * The newest live messages of a workspace that pass `filters` and `match` (a full-text condition), newest
 * first, found in steps so that neither a common word nor a rare one reads the whole table, whatever
 * PostgreSQL estimates. First among the newest RECENT_SCAN messages (from the edge, the RECENT_SCAN-th
 * newest): there the planner chooses, by the word's statistics, between checking them one by one newest
 * first (a common word fills the page after a few) and the full-text GIN index ANDed with the time index (a
 * rare word); misjudged, it checks at most those RECENT_SCAN. Then, if the page is not full, the older ones
 * in time slices going back (SEARCH_SLICES_DAYS, then the rest), each through bitmap scans only: the GIN
 * index ANDed with the time index when the slice holds fewer messages than the word (one day of a word in
 * 1% of messages), alone for a rare word. The slices are the branches of one UNION ALL under the LIMIT, so
 * the older ones are not run once the page is full. Without the bitmap-only settings the planner, misjudging
 * a word absent from its statistics as common, walks every message newest first.
 */
async function newestMatching<T>(
  db: Db,
  teamId: string,
  q: { columns: SQL; filters: SQL; match: SQL; limit: number; recentScan: number; slicesDays: number[] },
): Promise<T[]> {
  const live = sql`m.team_id = ${teamId} and m.deleted_at is null ${q.filters}`;
  // The oldest of the newest messages checked first (the recentScan-th newest): none when there are fewer.
  const edge = await firstRow<{ at: string; posted_at: string; ts: string; channel_id: string }>(
    db,
    sql`select (extract(epoch from m.posted_at) * 1000)::bigint::text as at, m.posted_at::text, m.ts, m.channel_id
      from ${slackMessages} m where ${live} ${NEWEST_FIRST} offset ${q.recentScan - 1} limit 1`,
  );
  const first = await typedRows<T>(
    db,
    edge
      ? sql`select ${q.columns} from ${slackMessages} m ${NAMES}
          where ${live} and ${q.match}
            and (m.posted_at, m.ts, m.channel_id) >= (${edge.posted_at}::timestamptz, ${edge.ts}, ${edge.channel_id})
          ${NEWEST_FIRST} limit ${q.limit}`
      : sql`select ${q.columns} from (select m.* from ${slackMessages} m where ${live} ${NEWEST_FIRST}
          limit ${q.recentScan}) m ${NAMES} where ${q.match} ${NEWEST_FIRST} limit ${q.limit}`,
  );
  if (first.length >= q.limit || !edge) return first;
  // Only the older matches' keys, slice by slice under bitmap scans; their columns and names are read by key after.
  const need = q.limit - first.length;
  const edgeAt = new Date(Number(edge.at));
  const bounds = q.slicesDays.map((d) => new Date(edgeAt.getTime() - d * DAY_MS).toISOString());
  const slices = [...bounds, null].map((lower, i) => {
    // The first slice starts right after the edge message (its exact time, not rounded to milliseconds).
    const upper =
      i === 0
        ? sql`and (m.posted_at, m.ts, m.channel_id) < (${edge.posted_at}::timestamptz, ${edge.ts}, ${edge.channel_id})`
        : sql`and m.posted_at < ${bounds[i - 1]}::timestamptz`;
    return sql`(select m.channel_id, m.ts, m.posted_at from ${slackMessages} m
        where ${live} and ${q.match} ${upper} ${lower ? sql`and m.posted_at >= ${lower}::timestamptz` : sql``}
        ${NEWEST_FIRST} limit ${need})`;
  });
  const keys = await db.transaction(async (tx) => {
    // Bitmap scans only; one process runs the UNION ALL's branches in order (newest slice first) and stops at
    // the LIMIT; bitmaps of a common word's pages stay exact (with 4 MB they turn lossy past ~65,000 pages,
    // and every message of a lossy page is parsed again).
    await tx.execute(sql`select set_config('enable_indexscan', 'off', true), set_config('enable_seqscan', 'off', true),
      set_config('max_parallel_workers_per_gather', '0', true), set_config('work_mem', '64MB', true)`);
    return typedRows<{ channel_id: string; ts: string }>(
      tx,
      sql`select channel_id, ts from (${sql.join(slices, sql` union all `)}) s limit ${need}`,
    );
  });
  if (keys.length === 0) return first;
  const older = await typedRows<T>(
    db,
    sql`select ${q.columns} from ${slackMessages} m ${NAMES}
      where m.team_id = ${teamId} and (m.channel_id, m.ts) in
        (select * from unnest(${sql.param(keys.map((k) => k.channel_id))}::text[], ${sql.param(keys.map((k) => k.ts))}::text[]))
      ${NEWEST_FIRST}`,
  );
  return [...first, ...older];
}

/** The conversation workbench's reads over workspace-data's facts, and its own two tables. */
export const conversationsRepo = (db: Db, opts: { recentScan?: number; slicesDays?: number[] } = {}) => {
  const recentScan = opts.recentScan ?? RECENT_SCAN;
  const slicesDays = opts.slicesDays ?? SEARCH_SLICES_DAYS;
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

    /** Live messages matching a full-text query, newest first (see `newestMatching`). */
    search: (teamId: string, q: SQL, channelId: string | null, limit: number) =>
      newestMatching<MessageRow>(db, teamId, {
        columns: MESSAGE_COLUMNS,
        filters: channelId ? sql`and m.channel_id = ${channelId}` : sql``,
        match: sql`${FTS} @@ ${q}`,
        limit,
        recentScan,
        slicesDays,
      }),

    /**
     * Live messages mentioning any of `ids` (`<@id>` tokens): the id is a word of the text for the full-text
     * index, then the token itself is checked (after a plain `<@` test, which most messages fail at once).
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
      return newestMatching<MentionRow>(db, teamId, {
        columns: sql`${MESSAGE_COLUMNS}, exists (select 1 from conversation_mentions_seen s
        where s.team_id = m.team_id and s.channel_id = m.channel_id and s.ts = m.ts) as seen`,
        filters: sql`${f.userId ? sql`and m.user_id = ${f.userId}` : sql``}
        ${f.channelId ? sql`and m.channel_id = ${f.channelId}` : sql``} ${after(f.after)}`,
        match: sql`${FTS} @@ to_tsquery('english', ${words.join(' | ')})
        and m.text like '%<@%' and m.text ~ ${`<@(${tokens.join('|')})[>|]`} ${f.q ? sql`and ${FTS} @@ ${f.q}` : sql``}`,
        limit: f.limit,
        recentScan,
        slicesDays,
      });
    },

    /** Who posted the newest mentions, and where (the Mentions panel's dropdowns: the newest 300 mentions'). */
    mentionAuthorsAndChannels: (teamId: string, ids: string[]) => {
      const words = ids.map((id) => id.toLowerCase().replace(/[^a-z0-9]/g, '')).filter(Boolean);
      const tokens = ids.map((id) => id.replace(/[^A-Za-z0-9]/g, '')).filter(Boolean);
      return newestMatching<{
        user_id: string | null;
        sender: string | null;
        channel_id: string;
        channel_name: string | null;
      }>(db, teamId, {
        columns: sql`m.user_id, coalesce(nullif(u.real_name, ''), nullif(u.display_name, '')) as sender,
        m.channel_id, c.name as channel_name`,
        filters: sql``,
        match: sql`${FTS} @@ to_tsquery('english', ${words.join(' | ')}) and m.text like '%<@%' and m.text ~ ${`<@(${tokens.join('|')})[>|]`}`,
        limit: 300,
        recentScan,
        slicesDays,
      });
    },

    /** Whether a full-text query keeps any word (English stop words alone leave none). */
    hasWords: async (q: SQL) =>
      ((await firstRow<{ n: number }>(db, sql`select numnode(${q})::int as n`))?.n ?? 0) > 0,

    /** Whom the Mentions panel looks for: Slack admins and owners, the admins who use Flywheel, the bot. */
    mentionTargets: (teamId: string) =>
      typedRows<{ id: string }>(
        db,
        sql`select member_id as id from ${slackMembers}
          where team_id = ${teamId} and (is_admin or is_owner) and not deleted
        union select slack_user_id from ${workspaceAdmins} where team_id = ${teamId} and slack_user_id is not null
        union select bot_user_id from ${workspaces} where team_id = ${teamId} and bot_user_id is not null`,
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
