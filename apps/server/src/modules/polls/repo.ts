import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows } from '../../db/sql.ts';
import type { PollBallot, PollOptionRecord } from './table.ts';
import { channelNames as channelNamesOf } from '../workspace-data/names.ts';
import { slackMembers } from '../workspace-data/table.ts';

/*
 * The front door's statements (service.ts): a poll created, found, listed, closed early, reopened and deleted.
 * Votes and what is read of them are votes-repo.ts; the due work (posting, closing, removing a poll's messages)
 * runner-repo.ts.
 */

export type PollRecord = {
  id: number;
  team_id: string;
  question: string;
  html: string;
  images: string[];
  options: PollOptionRecord[];
  channel_ids: string[];
  sender: 'bot' | 'admin';
  admin_user: string | null;
  type: 'scheduled' | 'instant';
  created_by: string;
  post_at: string;
  expires_at: string;
  receipt_id: number | null;
  closed_at: string | null;
  final_at: string | null;
  deleted_at: string | null;
  created_at: string;
  voting: 'emoji' | 'buttons';
  ballot: PollBallot | null;
};

export type NewPoll = Omit<
  PollRecord,
  'id' | 'receipt_id' | 'closed_at' | 'final_at' | 'deleted_at' | 'created_at'
> & { created_by_user: string | null };

const COLUMNS = sql.raw(`id, team_id, question, html, images, options, channel_ids, sender, admin_user, type,
  created_by, post_at, expires_at, receipt_id::int as receipt_id, closed_at, final_at, deleted_at, created_at,
  voting, ballot`);

const json = (v: unknown) => JSON.stringify(v);
const iso = (ms: number) => new Date(ms).toISOString();

export const pollsRepo = (db: Db) => ({
  async insert(p: NewPoll): Promise<number> {
    const row = await firstRow<{ id: number }>(
      db,
      sql`insert into polls (team_id, question, html, images, options, channel_ids, sender, admin_user, type,
          created_by, created_by_user, post_at, expires_at, voting, ballot)
        values (${p.team_id}, ${p.question}, ${p.html}, ${json(p.images)}::jsonb, ${json(p.options)}::jsonb,
          ${json(p.channel_ids)}::jsonb, ${p.sender}, ${p.admin_user}, ${p.type}, ${p.created_by},
          ${p.created_by_user}, ${p.post_at}::timestamptz, ${p.expires_at}::timestamptz, ${p.voting},
          ${p.ballot ? json(p.ballot) : null}::jsonb)
        returning id`,
    );
    return row!.id;
  },

  /** A poll of this workspace that is not deleted. */
  async find(teamId: string, id: number): Promise<PollRecord | undefined> {
    return firstRow<PollRecord>(
      db,
      sql`select ${COLUMNS} from polls where team_id = ${teamId} and id = ${id} and deleted_at is null`,
    );
  },

  /** Any poll by id (deleted ones too): the jobs' view. */
  async byId(id: number): Promise<PollRecord | undefined> {
    return firstRow<PollRecord>(db, sql`select ${COLUMNS} from polls where id = ${id}`);
  },

  async list(teamId: string, search?: string): Promise<PollRecord[]> {
    const like = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    return typedRows<PollRecord>(
      db,
      sql`select ${COLUMNS} from polls where team_id = ${teamId} and deleted_at is null
        ${like ? sql`and (question ilike ${like} or created_by ilike ${like})` : sql``}
        order by id desc limit 1000`,
    );
  },

  /**
   * Closes a posted, open poll now (its end becomes now, so closeDue claims it and shows the final results);
   * false when it is not open.
   */
  async closeEarly(teamId: string, id: number, now: number): Promise<boolean> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`update polls set expires_at = least(expires_at, ${iso(now)}::timestamptz)
        where team_id = ${teamId} and id = ${id} and deleted_at is null and receipt_id is not null
          and closed_at is null returning id`,
    );
    return rows.length > 0;
  },

  /** Opens a closed poll again until `until`; false when it is not closed. */
  async reopen(teamId: string, id: number, until: number): Promise<boolean> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`update polls set closed_at = null, final_at = null, claimed_until = null,
          expires_at = ${iso(until)}::timestamptz
        where team_id = ${teamId} and id = ${id} and deleted_at is null and receipt_id is not null
          and closed_at is not null returning id`,
    );
    return rows.length > 0;
  },

  channelNames: (teamId: string, ids: string[]) => channelNamesOf(db, teamId, ids),

  async adminName(teamId: string, memberId: string): Promise<string | null> {
    const row = await firstRow<{ name: string }>(
      db,
      sql`select coalesce(nullif(real_name, ''), nullif(display_name, ''), member_id) as name
        from ${slackMembers} where team_id = ${teamId} and member_id = ${memberId}`,
    );
    return row?.name ?? null;
  },

  async hardDelete(id: number): Promise<void> {
    await db.execute(sql`delete from polls where id = ${id}`);
  },

  /** Marks a poll deleted (its messages are removed from Slack by a job); false when there is no such poll. */
  async markDeleted(teamId: string, id: number, now: number): Promise<boolean> {
    const rows = await typedRows<{ id: number }>(
      db,
      sql`update polls set deleted_at = ${iso(now)}::timestamptz
        where team_id = ${teamId} and id = ${id} and deleted_at is null returning id`,
    );
    return rows.length > 0;
  },
});
export type PollsRepo = ReturnType<typeof pollsRepo>;

/**
 * A poll row's columns as PollRecord reads them (recurring.ts selects the occurrences of recurring polls;
 * votes-repo.ts locks a poll for a button vote).
 */
export const POLL_RECORD_COLUMNS = COLUMNS;
