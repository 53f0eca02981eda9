import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows, type Tx } from '../../db/sql.ts';
import type { InstanceAudience, StoredQuestion } from './table.ts';

/*
 * The definitions (service.ts): a form written, found, listed and deleted; its instances found and listed. The
 * due work (planned and held instances, their claims and ends) is runner-repo.ts; the members' responses
 * responses-repo.ts.
 */

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

export const FORM_COLUMNS = sql`f.id, f.team_id, f.name, f.description, f.sender, f.admin_user, f.questions,
  f.ack_message, f.channel_ids, f.dm_members, f.dm_tags, f.dm_channels, f.send_to_workspace, f.frequency, f.days,
  f.time, f.run_at::text as run_at, f.next_run_at::text as next_run_at, f.created_at::text as created_at`;

export const INSTANCE_COLUMNS = sql`i.id::int as id, i.form_id, i.team_id, i.execution_time::text as execution_time,
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
});
export type FormsRepo = ReturnType<typeof formsRepo>;
