import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';
import type { PollOptionRecord } from './table.ts';
import { POLL_RECORD_COLUMNS as COLUMNS, type PollRecord } from './repo.ts';
import { slackMembers } from '../workspace-data/table.ts';
import { workspaces } from '../workspaces/table.ts';

/*
 * Votes (listeners.ts): a button poll's choices, an emoji poll's reactions made into votes, who may vote, and the
 * poll a reaction's message belongs to; and what is read of them (the counts, the voters: core.ts, history.ts).
 */

export type VoterRow = {
  member_id: string;
  option: number;
  voted_at: string;
  name: string;
  email: string;
};

const json = (v: unknown) => JSON.stringify(v);
const iso = (ms: number) => new Date(ms).toISOString();

export const pollVotesRepo = (db: Db) => ({
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
export type PollVotesRepo = ReturnType<typeof pollVotesRepo>;
