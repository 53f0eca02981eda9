import { sql } from 'drizzle-orm';
import type { DmReply } from '@flywheel/shared/delivery';
import type { Db } from '../../db/client.ts';
import { typedRows } from '../../db/sql.ts';
import { tsToDate } from '../../lib/days.ts';
import { defineEventListener, type EventScope } from '../intake/listeners.ts';
import type { SlackEventOf } from '../../slack/events.ts';
import { humanMembers, memberNames } from '../workspace-data/names.ts';

/**
 * Replies to DMs (Events API `message.im`): what a member writes in their direct message with the bot. A reply
 * is linked to the send it answers: the message of its thread when it is written in one, else the latest message
 * the bot sent that member before it. Only the workspace's own people count (not bots, not the bot itself, not
 * an id the workspace does not have); edits and deletions follow the reply.
 */

/** Message subtypes that are a person writing (a file with a comment, a /me); the rest are Slack's own. */
const WRITTEN = new Set(['file_share', 'me_message', 'thread_broadcast']);

type ImMessage = SlackEventOf<'message'>;

/** A Slack timestamp ('1700000000.000100'): anything else names no message and has no time. */
const SLACK_TS = /^\d{9,11}\.\d{1,6}$/;

async function onImMessage(e: ImMessage, scope: EventScope): Promise<void> {
  if (e.channel_type !== 'im') return;
  if (e.ts && !SLACK_TS.test(e.ts)) return;
  if (e.thread_ts && !SLACK_TS.test(e.thread_ts)) return;
  const { tx, teamId } = scope;
  if (e.subtype === 'message_changed') {
    const ts = e.message?.ts;
    if (!ts) return;
    const edited = e.message?.edited?.ts;
    const at = edited && SLACK_TS.test(edited) ? edited : e.ts;
    await tx.execute(
      sql`update delivery_replies set text = ${e.message?.text ?? ''}, edited_at = ${at ? tsToDate(at) : new Date()}
        where team_id = ${teamId} and channel_id = ${e.channel} and ts = ${ts}`,
    );
    return;
  }
  if (e.subtype === 'message_deleted') {
    if (!e.deleted_ts) return;
    await tx.execute(
      sql`update delivery_replies set deleted_at = ${e.ts ? tsToDate(e.ts) : new Date()}
        where team_id = ${teamId} and channel_id = ${e.channel} and ts = ${e.deleted_ts} and deleted_at is null`,
    );
    return;
  }
  if (e.subtype && !WRITTEN.has(e.subtype)) return;
  if (e.bot_id || !e.user || !e.ts) return;
  if (!(await humanMembers(tx, teamId, [e.user])).has(e.user)) return;
  const threadTs = e.thread_ts && e.thread_ts !== e.ts ? e.thread_ts : null;
  const [answered] = await typedRows<{ id: number; receipt_id: number }>(
    tx,
    threadTs
      ? sql`select id::int as id, receipt_id::int as receipt_id from delivery_recipients
          where team_id = ${teamId} and channel_id = ${e.channel} and ts = ${threadTs}
            and kind = 'member' and target_id = ${e.user}
          limit 1`
      : sql`select id::int as id, receipt_id::int as receipt_id from delivery_recipients
          where team_id = ${teamId} and channel_id = ${e.channel} and ts is not null and ts <= ${e.ts}
            and kind = 'member' and target_id = ${e.user}
          order by ts desc limit 1`,
  );
  await tx.execute(
    sql`insert into delivery_replies (team_id, channel_id, ts, thread_ts, member_id, receipt_id, recipient_id,
          text, files, sent_at)
        values (${teamId}, ${e.channel}, ${e.ts}, ${threadTs}, ${e.user}, ${answered?.receipt_id ?? null},
          ${answered?.id ?? null}, ${e.text ?? ''}, ${e.files?.length ?? 0}, ${tsToDate(e.ts)})
        on conflict (team_id, channel_id, ts) do nothing`,
  );
}

export const dmReplyListener = defineEventListener({
  type: 'message',
  handle: onImMessage,
});

type ReplyRow = {
  // filled from workspace-data's names after the query
  id: number;
  receipt_id: number | null;
  receipt_description: string | null;
  action_type: string | null;
  member_id: string;
  member_name: string | null;
  text: string;
  files: number;
  ts: string;
  channel_id: string;
  thread_ts: string | null;
  sent_at: string;
  edited_at: string | null;
};

const toReply = (r: ReplyRow): DmReply => ({
  id: r.id,
  receipt_id: r.receipt_id,
  receipt_description: r.receipt_description,
  action_type: r.action_type,
  member_id: r.member_id,
  member_name: r.member_name ?? r.member_id,
  text: r.text,
  files: r.files,
  ts: r.ts,
  channel_id: r.channel_id,
  in_thread: r.thread_ts !== null,
  sent_at: new Date(r.sent_at).toISOString(),
  edited: r.edited_at !== null,
});

export function repliesRepo(db: Db) {
  const list = async (teamId: string, where: ReturnType<typeof sql>, limit: number) => {
    const rows = await typedRows<ReplyRow>(
      db,
      sql`select p.id::int as id, p.receipt_id::int as receipt_id, r.description as receipt_description,
            r.action_type, p.member_id, p.text, p.files, p.ts, p.channel_id, p.thread_ts, p.sent_at::text as sent_at,
            p.edited_at::text as edited_at
          from delivery_replies p
          left join delivery_receipts r on r.id = p.receipt_id
          where ${where} and p.deleted_at is null
          order by p.sent_at desc, p.id desc limit ${limit}`,
    );
    const names = await memberNames(
      db,
      teamId,
      rows.map((r) => r.member_id),
    );
    return rows.map((r) => toReply({ ...r, member_name: names.get(r.member_id) ?? null }));
  };
  return {
    /** A receipt's replies, newest first. */
    ofReceipt: (teamId: string, receiptId: number, limit: number) =>
      list(teamId, sql`p.team_id = ${teamId} and p.receipt_id = ${receiptId}`, limit),
    /** What a member wrote to the bot, newest first, whichever send it answers (or none). */
    ofMember: (teamId: string, memberId: string, limit: number) =>
      list(teamId, sql`p.team_id = ${teamId} and p.member_id = ${memberId}`, limit),
    /** Replies per receipt (not deleted), for the Receipts page's column. */
    async counts(receiptIds: number[]): Promise<Map<number, number>> {
      if (receiptIds.length === 0) return new Map();
      const rows = await typedRows<{ receipt_id: number; n: number }>(
        db,
        sql`select receipt_id::int as receipt_id, count(*)::int as n from delivery_replies
          where receipt_id = any(${sql.param(receiptIds)}::bigint[]) and deleted_at is null
          group by receipt_id`,
      );
      return new Map(rows.map((r) => [r.receipt_id, r.n]));
    },
  };
}
