import { sql, type SQL } from 'drizzle-orm';
import { typedRows, type Tx } from '../../db/sql.ts';
import { slackMessages, slackReactions } from '../workspace-data/table.ts';
import { isQuestionText, questionCondition } from './question-rule.ts';
import { questionAnswers } from './table.ts';

/**
 * Keeps conversation_question_answers (table.ts) as the ingestion writes messages, replies and reactions, in the
 * same transaction (workspace-data/ingest.ts calls these after each write): which messages are questions and
 * when each was first answered (docs/product/questions.md "What answers it"). Every call recomputes from the
 * stored facts what the messages it names hold now, so the order events arrive in, duplicates and a reply or
 * reaction stored before its question all come out the same as the query over the facts.
 */

/** A message by its key. */
export type MessageKey = { teamId: string; channelId: string; ts: string };
/** A message as the ingestion writes it (the fields these hooks look at). */
export type WrittenMessage = MessageKey & { text: string; isReply: boolean; threadTs: string | null };

/**
 * A question before who asked it is checked (the rule's SQL word for word, so the partial index
 * slack_messages_questions_idx serves it): a live top-level channel message with a question's text from a user,
 * not a bot's line nor a system one.
 */
const CANDIDATE = sql.raw(`not m.is_reply and m.deleted_at is null and ${questionCondition('m')}
  and (m.subtype is null or m.subtype in ('file_share', 'me_message')) and m.user_id is not null
  and m.channel_id not like 'D%'`);

/**
 * The first answer of the question `q` (an alias with team_id, channel_id, ts, user_id): its earliest live
 * reply in the thread or live reaction by anyone but the asker (a bot's reply too).
 */
export const firstAnswerOf = (q: string): SQL => {
  const a = sql.raw(q);
  return sql`least(
    (select min(r.posted_at) from ${slackMessages} r where r.team_id = ${a}.team_id and r.channel_id = ${a}.channel_id
      and r.thread_ts = ${a}.ts and r.is_reply and r.deleted_at is null and r.user_id is distinct from ${a}.user_id),
    (select min(x.reacted_at) from ${slackReactions} x where x.team_id = ${a}.team_id and x.channel_id = ${a}.channel_id
      and x.ts = ${a}.ts and x.removed_at is null and x.user_id <> ${a}.user_id))`;
};

const keysOf = (keys: MessageKey[]) => {
  const seen = new Set<string>();
  const out = keys.filter((k) => {
    const id = `${k.teamId}|${k.channelId}|${k.ts}`;
    return !seen.has(id) && Boolean(seen.add(id));
  });
  const col = (f: (k: MessageKey) => string) => sql.param(out.map(f));
  return {
    n: out.length,
    values: sql`unnest(${col((k) => k.teamId)}::text[], ${col((k) => k.channelId)}::text[], ${col((k) => k.ts)}::text[])
      as k(team_id, channel_id, ts)`,
  };
};

/**
 * Whether each message is a question now, with its first answer: a row for each that is, none for the others
 * (an edit can make a message a question or stop it being one; a deleted message is none).
 */
async function syncQuestions(tx: Tx, keys: MessageKey[]): Promise<void> {
  const k = keysOf(keys);
  if (k.n === 0) return;
  await tx.execute(sql`with gone as (
      delete from ${questionAnswers} q using ${k.values}
      where q.team_id = k.team_id and q.channel_id = k.channel_id and q.ts = k.ts
        and not exists (select 1 from ${slackMessages} m where m.team_id = q.team_id and m.channel_id = q.channel_id
          and m.ts = q.ts and ${CANDIDATE}))
    insert into ${questionAnswers} as a (team_id, channel_id, ts, user_id, posted_at, first_answer_at)
    select m.team_id, m.channel_id, m.ts, m.user_id, m.posted_at, ${firstAnswerOf('m')}
    from ${k.values} join ${slackMessages} m on m.team_id = k.team_id and m.channel_id = k.channel_id and m.ts = k.ts
    where ${CANDIDATE}
    on conflict (team_id, channel_id, ts) do update set first_answer_at = excluded.first_answer_at
      where a.first_answer_at is distinct from excluded.first_answer_at`);
}

/**
 * Those of the messages that are questions: a lookup by key, cheap to plan. Most replies and reactions are not on
 * a question, and the live drain writes them about one event at a time (other modules' listeners see each
 * event's facts written): the update below, planned for every one of them, was a third of PostgreSQL's time
 * per event (bench/ingest).
 */
async function questionsAmong(tx: Tx, keys: MessageKey[]): Promise<MessageKey[]> {
  const k = keysOf(keys);
  if (k.n === 0) return [];
  const rows = await typedRows<{ team_id: string; channel_id: string; ts: string }>(
    tx,
    sql`select q.team_id, q.channel_id, q.ts from ${k.values}
      join ${questionAnswers} q on q.team_id = k.team_id and q.channel_id = k.channel_id and q.ts = k.ts`,
  );
  return rows.map((r) => ({ teamId: r.team_id, channelId: r.channel_id, ts: r.ts }));
}

/** The first answer again of those of the messages that are questions (a reply or reaction came or went). */
async function refreshAnswers(tx: Tx, keys: MessageKey[]): Promise<void> {
  const k = keysOf(await questionsAmong(tx, keys));
  if (k.n === 0) return;
  await tx.execute(sql`update ${questionAnswers} a set first_answer_at = v.at
    from (select q.team_id, q.channel_id, q.ts, ${firstAnswerOf('q')} as at
      from ${k.values} join ${questionAnswers} q on q.team_id = k.team_id and q.channel_id = k.channel_id and q.ts = k.ts) v
    where a.team_id = v.team_id and a.channel_id = v.channel_id and a.ts = v.ts
      and a.first_answer_at is distinct from v.at`);
}

export const questionAnswerHooks = {
  /**
   * After messages were written (the new ones only): a top-level message with a question's text becomes a
   * question; a reply may be its thread's first answer. The TypeScript rule picks the messages worth a look;
   * the SQL rule (the same, question-rule.test.ts) decides.
   */
  async messagesAdded(tx: Tx, ms: WrittenMessage[]): Promise<void> {
    await syncQuestions(
      tx,
      ms.filter((m) => !m.isReply && isQuestionText(m.text)),
    );
    await refreshAnswers(
      tx,
      ms.filter((m) => m.isReply && m.threadTs).map((m) => ({ ...m, ts: m.threadTs! })),
    );
  },
  /** After reactions on these messages were added or removed. */
  reactionsChanged: (tx: Tx, keys: MessageKey[]) => refreshAnswers(tx, keys),
  /** After a message's text changed. */
  messageEdited: (tx: Tx, key: MessageKey) => syncQuestions(tx, [key]),
  /** After a message was deleted (a question stops being one; a reply may have been its thread's answer). */
  async messageDeleted(tx: Tx, key: MessageKey, gone: { is_reply: boolean; thread_ts: string | null }) {
    if (gone.is_reply && gone.thread_ts) await refreshAnswers(tx, [{ ...key, ts: gone.thread_ts }]);
    else await syncQuestions(tx, [key]);
  },
};
