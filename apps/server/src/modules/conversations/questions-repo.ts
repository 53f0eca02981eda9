import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows } from '../../db/sql.ts';
import { workspaceAdmins, workspaces } from '../workspaces/table.ts';
import { slackChannels, slackMembers, slackMessages } from '../workspace-data/table.ts';
import { questionAnswers, questionsHandled } from './table.ts';
import { MESSAGE_COLUMNS, NAMES, THREAD_COUNTS, type PagePosition, type ThreadRow } from './repo.ts';

/**
 * The questions (conversation_question_answers, kept by the ingestion: question-answers.ts) asked by a member: not
 * a bot, not a Slack admin or owner, not an admin of the workspace in Flywheel (who is which can change, so it is
 * checked here). Written as `not in` uncorrelated lists, which PostgreSQL hashes once per statement (a few dozen
 * people), instead of anti-joins the planner may probe once per question (a year's response times at 86,000
 * questions: 354 -> ~200 ms p50; bench/conversations/QUESTIONS.md). Neither list may hold a null (`not in` a list with a null
 * matches nothing): member ids are never null and admins without a Slack user are left out.
 */
const asked = (teamId: string) => sql`q.team_id = ${teamId}
  and q.user_id not in (select u.member_id from ${slackMembers} u where u.team_id = ${teamId}
    and (u.is_admin or u.is_owner or u.is_bot))
  and q.user_id not in (select a.slack_user_id from ${workspaceAdmins} a where a.team_id = ${teamId}
    and a.slack_user_id is not null)`;

/** No answer (the stored first answer: conversation_question_answers_unanswered_idx) and not handled. */
const UNANSWERED = sql`q.first_answer_at is null
  and not exists (select 1 from ${questionsHandled} h
    where h.team_id = q.team_id and h.channel_id = q.channel_id and h.ts = q.ts)`;

/**
 * Runs a statement without JIT compilation: a year of questions makes the planner's cost estimate large enough
 * for PostgreSQL to compile the plan (half a second) for a statement that runs in a few milliseconds.
 */
const withoutJit = <T>(db: Db, q: SQL) =>
  db.transaction(async (tx) => {
    // And with room to sort a year of questions (the percentiles) in memory.
    await tx.execute(sql`select set_config('jit', 'off', true), set_config('work_mem', '32MB', true)`);
    return typedRows<T>(tx, q);
  });

export type UnansweredFilter = {
  /** Asked at or after this time (the age filter)… */
  from: Date;
  /** …and at or before this one (the time it must have waited unanswered). */
  dueBy: Date;
  channelId: string | null;
  /** A full-text query (the search box), or none. */
  q: SQL | null;
};

/**
 * The groups of a response-times statement: 'all' (one statement: per channel, per week and the total), or its two
 * halves run side by side on PostgreSQL ('week'; 'channel' with the total). Each gives the same columns.
 */
const GROUPINGS = {
  all: {
    columns: sql`case when grouping(q.channel_id) = 0 then 'channel' when grouping(q.week) = 0 then 'week' else 'total' end as by, q.channel_id, q.week`,
    groups: sql`grouping sets ((q.channel_id), (q.week), ())`,
  },
  week: {
    columns: sql`'week' as by, null::text as channel_id, q.week`,
    groups: sql`q.week`,
  },
  channel: {
    columns: sql`case when grouping(q.channel_id) = 0 then 'channel' else 'total' end as by, q.channel_id, null::int as week`,
    groups: sql`grouping sets ((q.channel_id), ())`,
  },
} satisfies Record<string, { columns: SQL; groups: SQL }>;

type StatsRow = {
  questions: number;
  answered: number;
  median: number | null;
  p90: number | null;
  within_1h: number;
  within_24h: number;
};

/** Unanswered questions and response times, from the stored questions and their first answers. */
export const questionsRepo = (db: Db, opts: { split?: boolean } = {}) => {
  const filtered = (teamId: string, f: UnansweredFilter) => sql`${asked(teamId)}
    and q.posted_at >= ${f.from.toISOString()}::timestamptz and q.posted_at <= ${f.dueBy.toISOString()}::timestamptz
    ${f.channelId ? sql`and q.channel_id = ${f.channelId}` : sql``}
    ${f.q ? sql`and exists (select 1 from ${slackMessages} m where m.team_id = q.team_id and m.channel_id = q.channel_id and m.ts = q.ts and to_tsvector('english', m.text) @@ ${f.q} offset 0)` : sql``}
    and ${UNANSWERED}`;
  return {
    /** A page of unanswered questions, newest first. */
    unanswered: (teamId: string, f: UnansweredFilter, after: PagePosition | null, limit: number) =>
      withoutJit<ThreadRow>(
        db,
        sql`with keys as materialized (
          select q.team_id, q.channel_id, q.ts from ${questionAnswers} q
          where ${filtered(teamId, f)}
            ${after ? sql`and (q.posted_at, q.ts, q.channel_id) < (${after.at.toISOString()}::timestamptz, ${after.ts}, ${after.channelId})` : sql``}
          order by q.posted_at desc, q.ts desc, q.channel_id desc limit ${limit})
        select ${MESSAGE_COLUMNS}, ${THREAD_COUNTS}, null as sort_key
        from keys k join ${slackMessages} m on m.team_id = k.team_id and m.channel_id = k.channel_id and m.ts = k.ts
        ${NAMES}
        order by m.posted_at desc, m.ts desc, m.channel_id desc`,
      ),

    /** How many unanswered questions the filter matches. */
    countUnanswered: async (teamId: string, f: UnansweredFilter) =>
      (
        await withoutJit<{ n: number }>(
          db,
          sql`select count(*)::int as n from ${questionAnswers} q where ${filtered(teamId, f)}`,
        )
      )[0]?.n ?? 0,

    /** Whether a live top-level message is there to mark. */
    isTopLevel: async (teamId: string, channelId: string, ts: string) =>
      Boolean(
        await firstRow(
          db,
          sql`select 1 as one from ${slackMessages} m where m.team_id = ${teamId} and m.channel_id = ${channelId}
            and m.ts = ${ts} and not m.is_reply and m.deleted_at is null`,
        ),
      ),

    async markHandled(teamId: string, channelId: string, ts: string, by: string | null): Promise<void> {
      await db.execute(sql`insert into ${questionsHandled} (team_id, channel_id, ts, handled_by)
        values (${teamId}, ${channelId}, ${ts}, ${by}) on conflict do nothing`);
    },

    timezone: async (teamId: string) =>
      (
        await firstRow<{ timezone: string }>(
          db,
          sql`select timezone from ${workspaces} where team_id = ${teamId}`,
        )
      )?.timezone ?? null,

    /**
     * Response times of the questions asked from local day `fromDay` to `toDay` (both included, in `tz`): the
     * seconds from the question to its first answer (the earliest live reply in its thread or live reaction
     * on it by someone other than the asker, as stored by the ingestion), overall, per week (Monday in `tz`) and per channel. Median and
     * p90 are over the answered questions (percentile_cont: interpolated); the shares over all of them.
     */
    responseTimes: async (teamId: string, tz: string, fromDay: string, toDay: string) => {
      type Row = StatsRow & {
        channel_id: string | null;
        channel_name: string | null;
        week: string | null;
        by: string;
      };
      // PostgreSQL cannot hash groups for a percentile: one statement sorts the questions by channel, then again
      // by week, in turn. With `split` (PostgreSQL: DB_QUERY_SLICES > 1) the weeks, and the channels with the
      // total, are two statements side by side on two connections (a year of 86,470 questions: ~200 -> ~170 ms
      // p50); PGlite has one connection, so it runs the one statement.
      const stats = (by: keyof typeof GROUPINGS) =>
        withoutJit<Row>(
          db,
          sql`with b as materialized (
          -- The weeks' first instants (Monday 00:00 in tz), oldest first: a question's week is found by a binary
          -- search (width_bucket) instead of converting each question's time to tz, which costs more than the rest.
          select array_agg((d::date)::timestamp at time zone ${tz} order by d) as starts,
            array_agg(d::date::text order by d) as names
          from generate_series(date_trunc('week', ${fromDay}::date::timestamp), ${toDay}::date::timestamp, interval '1 week') d),
        q as (
          select q.channel_id, width_bucket(q.posted_at, b.starts) as week,
            case when q.first_answer_at is not null
              then greatest(0, extract(epoch from q.first_answer_at - q.posted_at))::float8 end as secs
          from ${questionAnswers} q, b
          where ${asked(teamId)}
            and q.posted_at >= (${fromDay}::date)::timestamp at time zone ${tz}
            and q.posted_at < (${toDay}::date + 1)::timestamp at time zone ${tz}),
        -- The two percentiles share one sort per group.
        s as (
          select ${GROUPINGS[by].columns},
            count(*)::int as questions, count(q.secs)::int as answered,
            percentile_cont(array[0.5, 0.9]::float8[]) within group (order by q.secs) as pcts,
            count(*) filter (where q.secs <= 3600)::int as within_1h,
            count(*) filter (where q.secs <= 86400)::int as within_24h
          from q group by ${GROUPINGS[by].groups})
        select s.by, s.channel_id, b.names[s.week] as week, s.questions, s.answered,
          s.pcts[1] as median, s.pcts[2] as p90, s.within_1h, s.within_24h, c.name as channel_name
        from s cross join b
        left join ${slackChannels} c on c.team_id = ${teamId} and c.channel_id = s.channel_id`,
        );
      if (!opts.split) return stats('all');
      const [weeks, channels] = await Promise.all([stats('week'), stats('channel')]);
      return [...weeks, ...channels];
    },
  };
};
export type QuestionsRepo = ReturnType<typeof questionsRepo>;
