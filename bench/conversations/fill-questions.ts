/**
 * Fills the last days of a partly loaded analytics data set with questions, for measuring the Questions list and
 * response times at the size a full load holds when a full load could not finish (bench/conversations/RESULTS.md
 * says when it was used). The loaded messages are chronological from a year ago, so a partial load has nothing
 * in the last 7, 30 or 90 days. This copies the loaded questions (their slack_messages rows and their
 * conversation_question_answers rows, first answer included) forward by whole multiples of the loaded span
 * until today, under new ts (the loaded questions only, each copy once); replies and reactions are not copied (the stored first answer is what the new
 * reads use; the old query, which reads the replies and reactions, is not measured on filled data).
 *
 *   BENCH_DATASET_DATABASE=test_perf_bench npx tsx bench/conversations/fill-questions.ts [--messages N]
 *
 * --factor K instead makes a full year's smaller load hold K times its questions: each loaded question copied
 * K - 1 times, 17 s apart (the same days, weeks and channels; the same distribution of response times).
 */
import { sql } from 'drizzle-orm';
import { typedRows } from '../../apps/server/src/db/sql.ts';
import { DEFAULTS, openDataset, TEAM, TZ } from '../analytics/dataset.ts';

const i = process.argv.indexOf('--messages');
const MESSAGES = i > 0 ? Number(process.argv[i + 1]) : DEFAULTS.messages;
const f = process.argv.indexOf('--factor');
const FACTOR = f > 0 ? Number(process.argv[f + 1]) : 0;
const { database } = await openDataset('postgres', MESSAGES);
const db = database.db;
const [span] = await typedRows<{ first: number; last: number; n: number }>(
  db,
  sql`select extract(epoch from min(posted_at))::float8 as first, extract(epoch from max(posted_at))::float8 as last,
    count(*)::int as n from conversation_question_answers where team_id = ${TEAM}`,
);
if (!span || span.n === 0) throw new Error('no questions loaded');
const now = Date.now() / 1000;
const step = Math.ceil(span.last - span.first + 1);
console.log(`${span.n} questions over ${(step / 86400).toFixed(1)} days`);
const shifts: number[] = [];
if (FACTOR > 1) for (let k = 1; k < FACTOR; k++) shifts.push(k * 17);
else for (let k = 1; span.first + k * step < now; k++) shifts.push(k * step);
// One statement: its source is the questions loaded before it (never a copy).
{
  const shift = sql`sh.shift`;
  const t0 = performance.now();
  const [r] = await typedRows<{ n: number }>(
    db,
    sql`with src as (
        select m.*, q.first_answer_at, sh.shift from slack_messages m join conversation_question_answers q
          on q.team_id = m.team_id and q.channel_id = m.channel_id and q.ts = m.ts
          cross join unnest(${`{${shifts.join(',')}}`}::int[]) as sh(shift)
        where q.team_id = ${TEAM} and q.posted_at < to_timestamp(${span.first + step})
          and q.posted_at + make_interval(secs => ${shift}) <= now()),
      ins as (
        insert into slack_messages (team_id, channel_id, ts, user_id, thread_ts, subtype, text, is_reply, day, posted_at)
        select team_id, channel_id, (split_part(ts, '.', 1)::bigint + ${shift})::text || '.' || split_part(ts, '.', 2),
          user_id, null, subtype, text, false,
          ((posted_at + make_interval(secs => ${shift})) at time zone ${TZ})::date, posted_at + make_interval(secs => ${shift})
        from src sh on conflict do nothing returning team_id, channel_id, ts, user_id, posted_at)
      , q as (insert into conversation_question_answers (team_id, channel_id, ts, user_id, posted_at, first_answer_at)
        select i.team_id, i.channel_id, i.ts, i.user_id, i.posted_at, s.first_answer_at + make_interval(secs => s.shift)
        from ins i join src s on s.team_id = i.team_id and s.channel_id = i.channel_id
          and (split_part(s.ts, '.', 1)::bigint + s.shift)::text || '.' || split_part(s.ts, '.', 2) = i.ts
        on conflict do nothing returning 1)
      select count(*)::int as n from q`,
  );
  console.log(
    `${shifts.length} copies: ${r?.n} questions, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}
await db.execute(sql`vacuum (analyze) conversation_question_answers`);
await db.execute(sql`analyze slack_messages`);
await database.close();
