import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows } from '../../db/sql.ts';
import { workspaceAdmins, workspaces } from '../workspaces/table.ts';
import { slackMembers, slackMessages } from '../workspace-data/table.ts';
import { MESSAGE_COLUMNS, NAMES, type MentionRow, type MessageRow, type PagePosition } from './repo.ts';

/*
 * The full-text reads (history.ts, question-reads.ts): a search of the workspace's messages, and the Mentions
 * panel's mentions, their authors and channels, and whom it looks for; each found newest first by
 * `newestMatching`.
 */

/**
 * The full-text expression of slack_messages_text_idx (workspace-data): the same expression here, so the GIN
 * index answers. 'english' is built into PostgreSQL and PGlite alike.
 */
const FTS = sql`to_tsvector('english', m.text)`;
const after = (p: PagePosition | null) =>
  p
    ? sql`and (m.posted_at, m.ts, m.channel_id) < (${p.at.toISOString()}::timestamptz, ${p.ts}, ${p.channelId})`
    : sql``;
const NEWEST_FIRST = sql`order by m.posted_at desc, m.ts desc, m.channel_id desc`;

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

/** The full-text search and the Mentions panel's reads; `opts` tunes `newestMatching`'s steps (tests). */
export const conversationsSearchRepo = (
  db: Db,
  opts: { recentScan?: number; slicesDays?: number[] } = {},
) => {
  const recentScan = opts.recentScan ?? RECENT_SCAN;
  const slicesDays = opts.slicesDays ?? SEARCH_SLICES_DAYS;
  return {
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
  };
};
export type ConversationsSearchRepo = ReturnType<typeof conversationsSearchRepo>;
