import type { EngagementLevel } from '@flywheel/shared/levels';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { intArray, typedRows, type Tx } from '../../db/sql.ts';
import type { TriggerType, WorkflowTask } from '@flywheel/shared/workflows';
import { buckets } from '../buckets/table.ts';
import { tags } from '../tags/table.ts';
import { formInstances, forms } from '../forms/table.ts';

/*
 * The definitions (service.ts and core.ts): a workflow with its tasks written, read, started or stopped, deleted;
 * the names of its audience's tags and segments. What fires a workflow is triggers-repo.ts; its due steps
 * runner-repo.ts; what the pages read back of its firings and steps, history-repo.ts.
 */

export type WorkflowRecord = {
  id: number;
  team_id: string;
  name: string;
  sender: 'bot' | 'admin';
  admin_user: string | null;
  trigger_type: TriggerType;
  channel_id: string | null;
  level: EngagementLevel | null;
  days: number | null;
  trigger_at: string | null;
  fired_at: string | null;
  tags: number[];
  segments: number[];
  active: boolean;
  since: string;
  scanned_at: string | null;
  created_at: string;
};

export type TaskRecord = {
  id: number;
  workflow_id: number;
  position: number;
  type: 'message' | 'form';
  title: string;
  delay_unit: 'minutes' | 'hours' | 'days' | null;
  delay_secs: number;
  content: WorkflowTask;
  form_id: number | null;
};

export type NewWorkflow = Omit<
  WorkflowRecord,
  'id' | 'fired_at' | 'active' | 'since' | 'scanned_at' | 'created_at'
> & {
  created_by: string | null;
};

const COLUMNS = sql`w.id, w.team_id, w.name, w.sender, w.admin_user, w.trigger_type, w.channel_id, w.level, w.days,
  w.trigger_at::text as trigger_at, w.fired_at::text as fired_at, w.tags, w.segments, w.active,
  w.since::text as since, w.scanned_at::text as scanned_at, w.created_at::text as created_at`;

const TASK_COLUMNS = sql`t.id, t.workflow_id, t.position, t.type, t.title, t.delay_unit, t.delay_secs, t.content,
  t.form_id`;

const json = (v: unknown) => JSON.stringify(v);

export const workflowsRepo = (db: Db) => ({
  transaction: <T>(fn: (tx: Tx) => Promise<T>) => db.transaction(fn),

  async insertWorkflow(tx: Tx, w: NewWorkflow, at: Date): Promise<number> {
    const [row] = await typedRows<{ id: number }>(
      tx,
      sql`insert into workflows (team_id, name, sender, admin_user, trigger_type, channel_id, level, days, trigger_at,
          tags, segments, since, created_by, created_at)
        values (${w.team_id}, ${w.name}, ${w.sender}, ${w.admin_user}, ${w.trigger_type}, ${w.channel_id}, ${w.level},
          ${w.days},
          ${w.trigger_at}::timestamptz, ${json(w.tags)}::jsonb, ${json(w.segments)}::jsonb,
          ${at.toISOString()}::timestamptz, ${w.created_by}, ${at.toISOString()}::timestamptz)
        returning id`,
    );
    return row!.id;
  },

  async insertTasks(tx: Tx, rows: Omit<TaskRecord, 'id'>[]): Promise<void> {
    if (!rows.length) return;
    await tx.execute(sql`insert into workflow_tasks (workflow_id, position, type, title, delay_unit, delay_secs,
        content, form_id)
      select x.workflow_id, x.position, x.type, x.title, x.delay_unit, x.delay_secs, x.content, x.form_id
      from jsonb_to_recordset(${json(rows)}::jsonb)
        as x(workflow_id int, position int, type text, title text, delay_unit text, delay_secs int, content jsonb,
          form_id int)`);
  },

  /** A workspace's workflows, newest first. */
  async list(teamId: string): Promise<WorkflowRecord[]> {
    return await typedRows<WorkflowRecord>(
      db,
      sql`select ${COLUMNS} from workflows w where w.team_id = ${teamId} order by w.id desc limit 1000`,
    );
  },

  async find(teamId: string, id: number): Promise<WorkflowRecord | null> {
    const [row] = await typedRows<WorkflowRecord>(
      db,
      sql`select ${COLUMNS} from workflows w where w.team_id = ${teamId} and w.id = ${id}`,
    );
    return row ?? null;
  },

  /** These workflows (any workspace: steps name their own), by id. */
  async findMany(ids: number[]): Promise<Map<number, WorkflowRecord>> {
    if (!ids.length) return new Map();
    const rows = await typedRows<WorkflowRecord>(
      db,
      sql`select ${COLUMNS} from workflows w where w.id = any(${intArray([...new Set(ids)])}::int[])`,
    );
    return new Map(rows.map((w) => [Number(w.id), w]));
  },

  /** The tasks of these workflows, in order, by workflow. */
  async tasksOf(workflowIds: number[]): Promise<Map<number, TaskRecord[]>> {
    const byWorkflow = new Map<number, TaskRecord[]>();
    if (!workflowIds.length) return byWorkflow;
    const rows = await typedRows<TaskRecord>(
      db,
      sql`select ${TASK_COLUMNS} from workflow_tasks t
        where t.workflow_id = any(${intArray([...new Set(workflowIds)])}::int[]) order by t.workflow_id, t.position`,
    );
    for (const t of rows) byWorkflow.set(t.workflow_id, [...(byWorkflow.get(t.workflow_id) ?? []), t]);
    return byWorkflow;
  },

  /** Activates or stops; activating again starts the activity triggers' watch afresh (`since`). */
  async setActive(teamId: string, id: number, active: boolean, at: Date): Promise<boolean> {
    const rows = await typedRows<unknown>(
      db,
      sql`update workflows set active = ${active},
          since = case when ${active} and not active then ${at.toISOString()}::timestamptz else since end,
          scanned_at = case when ${active} and not active then null else scanned_at end
        where team_id = ${teamId} and id = ${id} returning id`,
    );
    return rows.length > 0;
  },

  /**
   * Deletes a workflow: its firings and pending steps go with it (nothing more is sent), its forms leave the
   * lists and their instances not sent yet are skipped; what was sent keeps its receipts.
   */
  async remove(teamId: string, id: number): Promise<boolean> {
    return await db.transaction(async (tx) => {
      const gone = await typedRows<unknown>(
        tx,
        sql`delete from workflows where team_id = ${teamId} and id = ${id} returning id`,
      );
      if (gone.length === 0) return false;
      await tx.execute(
        sql`update ${forms} set deleted_at = now() where workflow_id = ${id} and deleted_at is null`,
      );
      await tx.execute(sql`update ${formInstances} set status = 'skipped', error = 'workflow deleted'
        where status = 'due' and form_id in (select id from ${forms} where workflow_id = ${id})`);
      return true;
    });
  },

  /** Names of tags and buckets by id (for the trigger's audience). */
  async tagNames(teamId: string, ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await typedRows<{ id: number; name: string }>(
      db,
      sql`select id, name from ${tags} where team_id = ${teamId} and id = any(${intArray(ids)}::int[])`,
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  },

  async bucketNames(teamId: string, ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await typedRows<{ id: number; name: string }>(
      db,
      sql`select id, name from ${buckets} where team_id = ${teamId} and id = any(${intArray(ids)}::int[])`,
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  },
});
export type WorkflowsRepo = ReturnType<typeof workflowsRepo>;

/** A workflow row's columns as WorkflowRecord reads them (triggers-repo.ts locks the triggers due a look). */
export const WORKFLOW_COLUMNS = COLUMNS;
