import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows } from '../../db/sql.ts';
import type { StoredAnswer } from './table.ts';
import { deliveryRecipients } from '../delivery/table.ts';
import { workspaces } from '../workspaces/table.ts';
import { slackMembers } from '../workspace-data/table.ts';

/*
 * The members' responses: who may answer an instance (listeners.ts), their answers stored and acknowledged, and
 * read back with their names (history.ts).
 */

const json = (v: unknown) => JSON.stringify(v);

export const formResponsesRepo = (db: Db) => ({
  /**
   * Whether `memberId` is a person of the workspace: a member Flywheel knows there, not deactivated, not a bot,
   * Slackbot or the app's own bot user.
   */
  async isPerson(teamId: string, memberId: string): Promise<boolean> {
    const row = await firstRow<{ ok: boolean }>(
      db,
      sql`select exists (select 1 from ${slackMembers} m
          where m.team_id = ${teamId} and m.member_id = ${memberId}
            and not m.is_bot and not m.deleted and m.member_id <> 'USLACKBOT')
        and not exists (select 1 from ${workspaces} w where w.team_id = ${teamId} and w.bot_user_id = ${memberId})
        as ok`,
    );
    return row?.ok ?? false;
  },

  /**
   * Whether an instance's send reached `memberId`: posted in a channel (anyone there may open it), or sent to
   * them as a DM. Read from the send's receipt (one row per member or channel, written when it was sent).
   */
  async reached(teamId: string, receiptId: number, memberId: string): Promise<boolean> {
    const row = await firstRow<{ ok: boolean }>(
      db,
      sql`select exists (select 1 from ${deliveryRecipients} r
        where r.receipt_id = ${receiptId} and r.team_id = ${teamId}
          and (r.kind = 'channel' or (r.kind = 'member' and r.target_id = ${memberId}))) as ok`,
    );
    return row?.ok ?? false;
  },

  /** Stores a member's answers (replacing earlier ones); `first` says whether this was their first. */
  async saveResponse(r: {
    instanceId: number;
    teamId: string;
    memberId: string;
    answers: StoredAnswer[];
  }): Promise<{ id: number; first: boolean }> {
    const row = await firstRow<{ id: number; first: boolean }>(
      db,
      sql`insert into form_responses (instance_id, team_id, member_id, answers)
        values (${r.instanceId}, ${r.teamId}, ${r.memberId}, ${json(r.answers)}::jsonb)
        on conflict (instance_id, member_id) do update set answers = excluded.answers, submitted_at = now()
        returning id::int as id, (xmax = 0) as first`,
    );
    return row!;
  },

  async setAckReceipt(responseId: number, receiptId: number): Promise<void> {
    await db.execute(sql`update form_responses set ack_receipt_id = ${receiptId} where id = ${responseId}`);
  },

  /** The responses to an instance with the members' names and e-mails, latest first. */
  async responses(
    teamId: string,
    instanceId: number,
  ): Promise<
    {
      member_id: string;
      name: string;
      email: string;
      submitted_at: string;
      answers: StoredAnswer[];
    }[]
  > {
    return await typedRows(
      db,
      sql`select r.member_id, coalesce(nullif(m.real_name, ''), nullif(m.display_name, ''), r.member_id) as name,
          coalesce(m.email, '') as email, r.submitted_at::text as submitted_at, r.answers
        from form_responses r
        left join ${slackMembers} m on m.team_id = r.team_id and m.member_id = r.member_id
        where r.team_id = ${teamId} and r.instance_id = ${instanceId}
        order by r.submitted_at desc, r.id desc`,
    );
  },
});
export type FormResponsesRepo = ReturnType<typeof formResponsesRepo>;
