import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows, type Tx } from '../../db/sql.ts';
import type { PollRecord } from './repo.ts';

/*
 * The due work's statements (runner.ts, and core.ts's post and settle): scheduled polls claimed and posted, expired
 * ones closed and their results made final, deleted ones' messages found; a poll's Slack messages recorded.
 */

const iso = (ms: number) => new Date(ms).toISOString();

export const pollRunnerRepo = (db: Db) => ({
  async setReceipt(id: number, receiptId: number): Promise<void> {
    await db.execute(sql`update polls set receipt_id = ${receiptId}, claimed_until = null where id = ${id}`);
  },

  async release(id: number): Promise<void> {
    await db.execute(sql`update polls set claimed_until = null where id = ${id}`);
  },

  /**
   * Scheduled polls whose time has come and that nobody posts yet, claimed for `leaseMs` (another worker skips
   * them; after a crash the claim lapses and the next tick takes them again).
   */
  async claimToPost(now: number, leaseMs: number, limit = 50): Promise<PollRecord[]> {
    return typedRows<PollRecord>(
      db,
      sql`update polls p set claimed_until = ${iso(now + leaseMs)}::timestamptz
        from (select id from polls
          where receipt_id is null and deleted_at is null and post_at <= ${iso(now)}::timestamptz
            and (claimed_until is null or claimed_until <= ${iso(now)}::timestamptz)
          order by post_at, id limit ${limit} for update skip locked) c
        where p.id = c.id
        returning ${sql.raw(
          `p.id, p.team_id, p.question, p.html, p.images, p.options, p.channel_ids, p.sender, p.admin_user,
          p.type, p.created_by, p.post_at, p.expires_at, p.receipt_id::int as receipt_id, p.closed_at,
          p.final_at, p.deleted_at, p.created_at, p.voting, p.ballot`,
        )}`,
    );
  },

  /**
   * Closes expired polls: one statement sets `closed_at` of the open ones (a row is updated by one statement
   * only, so a poll is closed exactly once whatever number of workers run this at the same moment) and claims
   * the final update of Slack's messages; a claim whose worker died before `final_at` lapses and is taken again.
   * Answers the claimed polls, with `first` true for the ones this call closed.
   */
  async claimToClose(
    now: number,
    leaseMs: number,
    opts: { pollId?: number; limit?: number } = {},
  ): Promise<(PollRecord & { first: boolean })[]> {
    return typedRows<PollRecord & { first: boolean }>(
      db,
      sql`update polls p set closed_at = coalesce(p.closed_at, ${iso(now)}::timestamptz),
          claimed_until = ${iso(now + leaseMs)}::timestamptz
        from (select id, closed_at is null as first from polls
          where final_at is null and deleted_at is null and receipt_id is not null
            and expires_at <= ${iso(now)}::timestamptz
            and (claimed_until is null or claimed_until <= ${iso(now)}::timestamptz)
            ${opts.pollId ? sql`and id = ${opts.pollId}` : sql``}
          order by expires_at, id limit ${opts.limit ?? 50} for update skip locked) c
        where p.id = c.id
        returning c.first, ${sql.raw(
          `p.id, p.team_id, p.question, p.html, p.images, p.options, p.channel_ids, p.sender, p.admin_user,
          p.type, p.created_by, p.post_at, p.expires_at, p.receipt_id::int as receipt_id, p.closed_at,
          p.final_at, p.deleted_at, p.created_at, p.voting, p.ballot`,
        )}`,
    );
  },

  /** A scheduled poll that could not be posted: closed as it is, never tried again. */
  async markUnposted(id: number, now: number): Promise<void> {
    await db.execute(sql`update polls set closed_at = ${iso(now)}::timestamptz, final_at = ${iso(now)}::timestamptz,
      claimed_until = null where id = ${id}`);
  },

  async markFinal(id: number, now: number): Promise<void> {
    await db.execute(
      sql`update polls set final_at = ${iso(now)}::timestamptz, claimed_until = null
        where id = ${id} and closed_at is not null`,
    );
  },

  /** Deleted polls whose messages are still to be removed from Slack. */
  async deletedIds(limit = 50): Promise<number[]> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`select id from polls where deleted_at is not null order by id limit ${limit}`,
    );
    return rows.map((r) => r.id);
  },

  async messages(pollId: number): Promise<{ channel: string; ts: string }[]> {
    return typedRows<{ channel: string; ts: string }>(
      db,
      sql`select channel_id as channel, ts from poll_messages where poll_id = ${pollId} order by channel_id`,
    );
  },

  async saveMessages(
    runner: Tx,
    pollId: number,
    teamId: string,
    messages: { channel: string; ts: string }[],
  ): Promise<void> {
    for (const m of messages)
      await runner.execute(sql`insert into poll_messages (poll_id, team_id, channel_id, ts)
        values (${pollId}, ${teamId}, ${m.channel}, ${m.ts}) on conflict do nothing`);
  },
});
export type PollRunnerRepo = ReturnType<typeof pollRunnerRepo>;
