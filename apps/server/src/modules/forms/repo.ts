import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, intArray, textArray, typedRows, type Tx } from '../../db/sql.ts';
import type { InstanceAudience, StoredAnswer, StoredQuestion } from './table.ts';
import { deliveryRecipients } from '../delivery/table.ts';
import { workspaces } from '../workspaces/table.ts';
import { slackMembers } from '../workspace-data/table.ts';

export type FormRecord = {
  id: number;
  team_id: string;
  name: string;
  description: string;
  sender: 'bot' | 'admin';
  admin_user: string | null;
  questions: StoredQuestion[];
  ack_message: string;
  channel_ids: string[];
  dm_members: string[];
  dm_tags: number[];
  dm_channels: string[];
  send_to_workspace: boolean;
  frequency: 'Everyday' | 'Weekly' | 'onetime';
  days: string[];
  time: string | null;
  run_at: string | null;
  next_run_at: string | null;
  created_at: string;
};

export type NewForm = Omit<FormRecord, 'id' | 'created_at'> & { created_by: string | null };

export type InstanceRecord = {
  id: number;
  form_id: number;
  team_id: string;
  execution_time: string;
  audience: InstanceAudience;
  status: 'due' | 'sent' | 'failed' | 'skipped';
  receipt_id: number | null;
  recipients: number;
  responses: number;
};

const FORM_COLUMNS = sql`f.id, f.team_id, f.name, f.description, f.sender, f.admin_user, f.questions,
  f.ack_message, f.channel_ids, f.dm_members, f.dm_tags, f.dm_channels, f.send_to_workspace, f.frequency, f.days,
  f.time, f.run_at::text as run_at, f.next_run_at::text as next_run_at, f.created_at::text as created_at`;

const INSTANCE_COLUMNS = sql`i.id::int as id, i.form_id, i.team_id, i.execution_time::text as execution_time,
  i.audience, i.status, i.receipt_id::int as receipt_id, i.recipients,
  (select count(*)::int from form_responses r where r.instance_id = i.id) as responses`;

const json = (v: unknown) => JSON.stringify(v);

export const formsRepo = (db: Db) => ({
  /** A form; a workflow's form task names its workflow (and is written in the workflow's transaction). */
  async insertForm(f: NewForm & { workflow_id?: number }, runner: Tx = db): Promise<number> {
    const [row] = await typedRows<{ id: number }>(
      runner,
      sql`insert into forms (team_id, name, description, sender, admin_user, questions, ack_message, channel_ids,
          dm_members, dm_tags, dm_channels, send_to_workspace, frequency, days, time, run_at, next_run_at, created_by,
          workflow_id)
        values (${f.team_id}, ${f.name}, ${f.description}, ${f.sender}, ${f.admin_user}, ${json(f.questions)}::jsonb,
          ${f.ack_message}, ${json(f.channel_ids)}::jsonb, ${json(f.dm_members)}::jsonb, ${json(f.dm_tags)}::jsonb,
          ${json(f.dm_channels)}::jsonb, ${f.send_to_workspace}, ${f.frequency}, ${json(f.days)}::jsonb, ${f.time},
          ${f.run_at}::timestamptz, ${f.next_run_at}::timestamptz, ${f.created_by}, ${f.workflow_id ?? null})
        returning id`,
    );
    return row!.id;
  },

  /** A form of the workspace that is not deleted. */
  async findForm(teamId: string, id: number): Promise<FormRecord | null> {
    const [row] = await typedRows<FormRecord>(
      db,
      sql`select ${FORM_COLUMNS} from forms f where f.team_id = ${teamId} and f.id = ${id} and f.deleted_at is null`,
    );
    return row ?? null;
  },

  /** The workspace's forms, newest first, with how many instances and responses each has. */
  async listForms(
    teamId: string,
    search?: string,
  ): Promise<(FormRecord & { instances: number; responses: number })[]> {
    const like = search ? `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    return await typedRows<FormRecord & { instances: number; responses: number }>(
      db,
      sql`select ${FORM_COLUMNS},
          (select count(*)::int from form_instances i where i.form_id = f.id and i.status <> 'skipped') as instances,
          (select count(*)::int from form_responses r join form_instances i on i.id = r.instance_id
            where i.form_id = f.id) as responses
        from forms f where f.team_id = ${teamId} and f.deleted_at is null and f.workflow_id is null
        ${like ? sql`and (lower(f.name) like ${like} or lower(f.description) like ${like})` : sql``}
        order by f.id desc limit 1000`,
    );
  },

  /** Deletes a form: out of the lists, nothing more planned, its instances not sent yet skipped. */
  async deleteForm(teamId: string, id: number): Promise<boolean> {
    return await db.transaction(async (tx) => {
      const gone = await typedRows<unknown>(
        tx,
        sql`update forms set deleted_at = now(), next_run_at = null
          where team_id = ${teamId} and id = ${id} and deleted_at is null and workflow_id is null returning id`,
      );
      if (gone.length === 0) return false;
      await tx.execute(sql`update form_instances set status = 'skipped', error = 'form deleted'
        where form_id = ${id} and status = 'due'`);
      return true;
    });
  },

  /** Recurring and scheduled forms whose next run is due, locked for this transaction (another worker skips them). */
  async lockDueForms(tx: Tx, limit: number, now: Date): Promise<(FormRecord & { late_ms: number })[]> {
    const at = now.toISOString();
    return await typedRows<FormRecord & { late_ms: number }>(
      tx,
      sql`select ${FORM_COLUMNS},
          (extract(epoch from (${at}::timestamptz - f.next_run_at)) * 1000)::float8 as late_ms
        from forms f where f.deleted_at is null and f.next_run_at is not null and f.next_run_at <= ${at}::timestamptz
        order by f.next_run_at limit ${limit} for update skip locked`,
    );
  },

  /** A batch of planned instances (one already written for the same form and run time is left as it is). */
  async addInstances(
    tx: Tx,
    rows: {
      formId: number;
      teamId: string;
      key: string;
      at: string;
      audience: InstanceAudience;
      status: 'due' | 'skipped';
    }[],
  ): Promise<void> {
    if (!rows.length) return;
    await tx.execute(sql`insert into form_instances (form_id, team_id, run_key, execution_time, audience, status)
      select f, t, k, a, au::jsonb, s
      from unnest(${intArray(rows.map((r) => r.formId))}::int[], ${textArray(rows.map((r) => r.teamId))}::text[],
        ${textArray(rows.map((r) => r.key))}::text[], ${textArray(rows.map((r) => r.at))}::timestamptz[],
        ${textArray(rows.map((r) => json(r.audience)))}::text[], ${textArray(rows.map((r) => r.status))}::text[])
        as v(f, t, k, a, au, s)
      on conflict (form_id, run_key) do nothing`);
  },

  /** Moves a batch of forms on: their next run (none: a one-time form is done) and when they last ran. */
  async advanceMany(tx: Tx, rows: { id: number; next: string | null; ranAt: string }[]): Promise<void> {
    if (!rows.length) return;
    await tx.execute(sql`update forms f set next_run_at = nullif(v.n, '')::timestamptz, last_run_at = v.r::timestamptz
      from unnest(${intArray(rows.map((r) => r.id))}::int[], ${textArray(rows.map((r) => r.next ?? ''))}::text[],
        ${textArray(rows.map((r) => r.ranAt))}::text[]) as v(id, n, r)
      where f.id = v.id`);
  },

  /** An instance sent now (instant, or the Send-form popup), held by this request for `leaseMs`. */
  async insertHeldInstance(i: {
    formId: number;
    teamId: string;
    key: string;
    at: Date;
    audience: InstanceAudience;
    leaseMs: number;
  }): Promise<number> {
    const [row] = await typedRows<{ id: number }>(
      db,
      sql`insert into form_instances (form_id, team_id, run_key, execution_time, audience, status, claimed_until)
        values (${i.formId}, ${i.teamId}, ${i.key}, ${i.at.toISOString()}::timestamptz, ${json(i.audience)}::jsonb,
          'due', ${new Date(i.at.getTime() + i.leaseMs).toISOString()}::timestamptz)
        returning id::int as id`,
    );
    return row!.id;
  },

  /**
   * Instances a workflow's steps send (one per step, named by its key), held by their sender for `leaseMs`:
   * asking again for a key returns the same instance, so a step sent again after a crash makes no second one.
   */
  async holdInstances(
    rows: { formId: number; teamId: string; key: string; audience: InstanceAudience }[],
    at: Date,
    leaseMs: number,
  ): Promise<Map<string, number>> {
    if (!rows.length) return new Map();
    const found = await typedRows<{ id: number; run_key: string }>(
      db,
      sql`insert into form_instances (form_id, team_id, run_key, execution_time, audience, status, claimed_until)
        select f, t, k, ${at.toISOString()}::timestamptz, au::jsonb, 'due',
          ${new Date(at.getTime() + leaseMs).toISOString()}::timestamptz
        from unnest(${intArray(rows.map((r) => r.formId))}::int[], ${textArray(rows.map((r) => r.teamId))}::text[],
          ${textArray(rows.map((r) => r.key))}::text[], ${textArray(rows.map((r) => json(r.audience)))}::text[])
          as v(f, t, k, au)
        on conflict (form_id, run_key) do update set claimed_until = excluded.claimed_until
        returning id::int as id, run_key`,
    );
    return new Map(found.map((r) => [r.run_key, r.id]));
  },

  /** Records how a batch of held instances ended, in one statement. */
  async finishInstances(
    rows: {
      id: number;
      status: 'sent' | 'failed';
      receiptId: number | null;
      recipients: number;
      error: string | null;
    }[],
  ): Promise<void> {
    if (!rows.length) return;
    await db.execute(sql`update form_instances i set status = x.status, receipt_id = x.receipt_id,
        recipients = x.recipients, error = x.error
      from jsonb_to_recordset(${json(rows.map((r) => ({ id: r.id, status: r.status, receipt_id: r.receiptId, recipients: r.recipients, error: r.error })))}::jsonb)
        as x(id int, status text, receipt_id int, recipients int, error text)
      where i.id = x.id and i.status = 'due'`);
  },

  /** Claims up to `limit` due instances for `leaseMs`, skipping those another worker holds. */
  async claimDueInstances(limit: number, now: Date, leaseMs: number): Promise<InstanceRecord[]> {
    const at = now.toISOString();
    const until = new Date(now.getTime() + leaseMs).toISOString();
    return await typedRows<InstanceRecord>(
      db,
      sql`with c as (
          update form_instances i set claimed_until = ${until}::timestamptz
          from (select id from form_instances
            where status = 'due' and execution_time <= ${at}::timestamptz
              and (claimed_until is null or claimed_until <= ${at}::timestamptz)
            order by execution_time, id limit ${limit} for update skip locked) d
          where i.id = d.id returning i.*)
        select ${INSTANCE_COLUMNS} from c i`,
    );
  },

  async releaseInstance(id: number, at: Date): Promise<void> {
    await db.execute(sql`update form_instances set claimed_until = ${at.toISOString()}::timestamptz
      where id = ${id} and status = 'due'`);
  },

  async finishInstance(
    id: number,
    r: {
      status: 'sent' | 'failed' | 'skipped';
      receiptId: number | null;
      recipients: number;
      error: string | null;
    },
  ): Promise<void> {
    await db.execute(sql`update form_instances set status = ${r.status}, receipt_id = ${r.receiptId},
        recipients = ${r.recipients}, error = ${r.error}
      where id = ${id} and status = 'due'`);
  },

  /** An instance of the workspace, with its form's state (deleted or not). */
  async findInstance(
    teamId: string,
    id: number,
  ): Promise<(InstanceRecord & { form_deleted: boolean }) | null> {
    const [row] = await typedRows<InstanceRecord & { form_deleted: boolean }>(
      db,
      sql`select ${INSTANCE_COLUMNS}, f.deleted_at is not null as form_deleted
        from form_instances i join forms f on f.id = i.form_id
        where i.team_id = ${teamId} and i.id = ${id}`,
    );
    return row ?? null;
  },

  /** A form's instances that were sent or are on their way, newest first. */
  async listInstances(teamId: string, formId: number): Promise<InstanceRecord[]> {
    return await typedRows<InstanceRecord>(
      db,
      sql`select ${INSTANCE_COLUMNS} from form_instances i
        where i.team_id = ${teamId} and i.form_id = ${formId} and i.status <> 'skipped'
        order by i.execution_time desc, i.id desc limit 2000`,
    );
  },

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
export type FormsRepo = ReturnType<typeof formsRepo>;
