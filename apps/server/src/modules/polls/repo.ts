import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';
import type { PollBallot, PollOptionRecord } from './table.ts';
import { channelNames as channelNamesOf } from '../workspace-data/names.ts';
import { slackMembers } from '../workspace-data/table.ts';
import { workspaces } from '../workspaces/table.ts';

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

export type VoterRow = {
  member_id: string;
  option: number;
  voted_at: string;
  name: string;
  email: string;
};

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

  /** Votes per option of these polls (an emoji poll's votes, or a button poll's choices). */
  async counts(pollIds: number[]): Promise<Map<number, Map<number, number>>> {
    const out = new Map<number, Map<number, number>>();
    if (!pollIds.length) return out;
    const rows = await typedRows<{ poll_id: number; option: number; n: number }>(
      db,
      sql`select poll_id, option, count(*)::int as n
        from (select poll_id, option from poll_votes union all select poll_id, option from poll_choices) v
        where poll_id in (select jsonb_array_elements_text(${json(pollIds)}::jsonb)::int)
        group by poll_id, option`,
    );
    for (const r of rows) {
      const m = out.get(r.poll_id) ?? new Map<number, number>();
      m.set(r.option, r.n);
      out.set(r.poll_id, m);
    }
    return out;
  },

  /** How many members voted in each of these polls (one choosing several options counts once). */
  async voterCounts(pollIds: number[]): Promise<Map<number, number>> {
    if (!pollIds.length) return new Map();
    const rows = await typedRows<{ poll_id: number; n: number }>(
      db,
      sql`select poll_id, count(distinct voter)::int as n
        from (select poll_id, member_id as voter from poll_votes union all select poll_id, voter from poll_choices) v
        where poll_id in (select jsonb_array_elements_text(${json(pollIds)}::jsonb)::int)
        group by poll_id`,
    );
    return new Map(rows.map((r) => [r.poll_id, r.n]));
  },

  /** A named button poll's voters: one row per member and chosen option. */
  async choiceVoters(pollId: number): Promise<VoterRow[]> {
    return typedRows<VoterRow>(
      db,
      sql`select c.voter as member_id, c.option, c.voted_at,
          coalesce(nullif(m.real_name, ''), nullif(m.display_name, ''), c.voter) as name,
          coalesce(m.email, '') as email
        from poll_choices c join polls p on p.id = c.poll_id
          left join ${slackMembers} m on m.team_id = p.team_id and m.member_id = c.voter
        where c.poll_id = ${pollId} and c.voter not like 'h:%'
        order by c.voted_at desc, c.voter, c.option`,
    );
  },

  /** The poll as a button vote sees it, locked: a poll's votes are applied one after another. */
  async lockForVote(tx: Tx, pollId: number): Promise<PollRecord | undefined> {
    return firstRow<PollRecord>(tx, sql`select ${COLUMNS} from polls where id = ${pollId} for update`);
  },

  /** The options a voter has chosen in a button poll. */
  async choicesOf(tx: Tx, pollId: number, voter: string): Promise<number[]> {
    const rows = await typedRows<{ option: number }>(
      tx,
      sql`select option from poll_choices where poll_id = ${pollId} and voter = ${voter} order by option`,
    );
    return rows.map((r) => r.option);
  },

  async choose(tx: Tx, pollId: number, voter: string, option: number, at: number | null): Promise<void> {
    await tx.execute(sql`insert into poll_choices (poll_id, voter, option, voted_at)
      values (${pollId}, ${voter}, ${option}, ${at === null ? null : iso(at)}::timestamptz)
      on conflict do nothing`);
  },

  /** Withdraws a voter's choice of one option, or (option omitted) all of them. */
  async unchoose(tx: Tx, pollId: number, voter: string, option?: number): Promise<void> {
    await tx.execute(sql`delete from poll_choices where poll_id = ${pollId} and voter = ${voter}
      ${option === undefined ? sql`` : sql`and option = ${option}`}`);
  },

  async setOptions(tx: Tx, pollId: number, options: PollOptionRecord[]): Promise<void> {
    await tx.execute(sql`update polls set options = ${json(options)}::jsonb where id = ${pollId}`);
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

  async voters(pollId: number): Promise<VoterRow[]> {
    return typedRows<VoterRow>(
      db,
      sql`select v.member_id, v.option, v.voted_at,
          coalesce(nullif(m.real_name, ''), nullif(m.display_name, ''), v.member_id) as name,
          coalesce(m.email, '') as email
        from poll_votes v left join ${slackMembers} m on m.team_id = v.team_id and m.member_id = v.member_id
        where v.poll_id = ${pollId}
        order by v.voted_at desc, v.member_id`,
    );
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

  async setReceipt(id: number, receiptId: number): Promise<void> {
    await db.execute(sql`update polls set receipt_id = ${receiptId}, claimed_until = null where id = ${id}`);
  },

  async release(id: number): Promise<void> {
    await db.execute(sql`update polls set claimed_until = null where id = ${id}`);
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

  /** The poll a message belongs to (inside the events transaction). */
  async pollOfMessage(tx: Tx, teamId: string, channel: string, ts: string): Promise<number | undefined> {
    const row = await firstRow<{ poll_id: number }>(
      tx,
      sql`select poll_id from poll_messages where team_id = ${teamId} and channel_id = ${channel} and ts = ${ts}`,
    );
    return row?.poll_id;
  },

  /** Posted, open polls of a workspace that may have messages not yet recorded (fewer than their channels). */
  async unsettled(tx: Tx, teamId: string, since: number): Promise<{ id: number; receipt_id: number }[]> {
    return typedRows<{ id: number; receipt_id: number }>(
      tx,
      sql`select p.id, p.receipt_id::int as receipt_id from polls p
        where p.team_id = ${teamId} and p.receipt_id is not null and p.closed_at is null and p.deleted_at is null
          and p.post_at >= ${iso(since)}::timestamptz
          and (select count(*) from poll_messages m where m.poll_id = p.id) < jsonb_array_length(p.channel_ids)
        order by p.id desc limit 20`,
    );
  },

  /** The poll as a vote sees it, locked for the vote (votes of one poll are applied one after another). */
  async forVote(
    tx: Tx,
    pollId: number,
  ): Promise<
    | Pick<
        PollRecord,
        'id' | 'team_id' | 'options' | 'post_at' | 'expires_at' | 'closed_at' | 'deleted_at' | 'voting'
      >
    | undefined
  > {
    return firstRow(
      tx,
      sql`select id, team_id, options, post_at, expires_at, closed_at, deleted_at, voting
        from polls where id = ${pollId}`,
    );
  },

  /**
   * Whether `memberId` is a person of the workspace who may vote: a member Flywheel knows there, not
   * deactivated, not a bot, Slackbot or the app's own bot user.
   */
  async isPerson(tx: Tx, teamId: string, memberId: string): Promise<boolean> {
    const row = await firstRow<{ ok: boolean }>(
      tx,
      sql`select exists (select 1 from ${slackMembers} m
          where m.team_id = ${teamId} and m.member_id = ${memberId}
            and not m.is_bot and not m.deleted and m.member_id <> 'USLACKBOT')
        and not exists (select 1 from ${workspaces} w where w.team_id = ${teamId} and w.bot_user_id = ${memberId})
        as ok`,
    );
    return row?.ok ?? false;
  },

  /**
   * Applies a reaction event to a member's reactions (unless a newer event for the same option was applied
   * already), then makes their vote their newest option reaction still there. True when the vote changed.
   */
  async react(
    tx: Tx,
    r: { pollId: number; teamId: string; memberId: string; option: number; present: boolean; ts: string },
  ): Promise<boolean> {
    // The event's Slack timestamp to the microsecond (exact: numeric, not a float).
    const at = sql`('epoch'::timestamptz + ${r.ts}::numeric * interval '1 second')`;
    await tx.execute(sql`insert into poll_reactions (poll_id, member_id, option, present, at)
      values (${r.pollId}, ${r.memberId}, ${r.option}, ${r.present}, ${at})
      on conflict (poll_id, member_id, option) do update set present = excluded.present, at = excluded.at
        where poll_reactions.at <= excluded.at`);
    const before = await firstRow<{ option: number }>(
      tx,
      sql`select option from poll_votes where poll_id = ${r.pollId} and member_id = ${r.memberId}`,
    );
    const now = await firstRow<{ option: number; at: string }>(
      tx,
      sql`select option, at from poll_reactions where poll_id = ${r.pollId} and member_id = ${r.memberId}
        and present order by at desc, option desc limit 1`,
    );
    if (!now) {
      if (!before) return false;
      await tx.execute(sql`delete from poll_votes where poll_id = ${r.pollId} and member_id = ${r.memberId}`);
      return true;
    }
    if (before?.option === now.option) return false;
    await tx.execute(sql`insert into poll_votes (poll_id, team_id, member_id, option, voted_at)
      values (${r.pollId}, ${r.teamId}, ${r.memberId}, ${now.option}, ${now.at}::timestamptz)
      on conflict (poll_id, member_id) do update set option = excluded.option, voted_at = excluded.voted_at`);
    return true;
  },
});
export type PollsRepo = ReturnType<typeof pollsRepo>;

/** A poll row's columns as PollRecord reads them (recurring.ts selects the occurrences of recurring polls). */
export const POLL_RECORD_COLUMNS = COLUMNS;
