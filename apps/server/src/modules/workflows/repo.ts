import type { EngagementLevel } from '@flywheel/shared/levels';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, intArray, textArray, typedRows, type Tx } from '../../db/sql.ts';
import type { TriggerType, WorkflowTask } from '@flywheel/shared/workflows';
import { buckets } from '../buckets/table.ts';
import { tags } from '../tags/table.ts';
import { deliveryReceipts } from '../delivery/table.ts';
import { slackMembers } from '../workspace-data/table.ts';
import { formInstances, forms } from '../forms/table.ts';

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

/** A step a worker claimed: what it sends is its workflow's task at `position`, for the trigger's member. */
export type ClaimedStep = {
  id: number;
  workflow_id: number;
  trigger_id: number;
  team_id: string;
  position: number;
  member_id: string | null;
};

/** A firing of a trigger to record (and its first step). */
export type Firing = { workflowId: number; key: string; memberId: string | null; at: string };

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

  /** Per workflow: how many times it fired; per task: sent (or failed) and pending steps. */
  async counts(workflowIds: number[]): Promise<{
    triggered: Map<number, number>;
    steps: Map<string, { sent: number; pending: number }>;
  }> {
    const triggered = new Map<number, number>();
    const steps = new Map<string, { sent: number; pending: number }>();
    if (!workflowIds.length) return { triggered, steps };
    const ids = intArray([...new Set(workflowIds)]);
    const [fired, done] = await Promise.all([
      typedRows<{ workflow_id: number; n: number }>(
        db,
        sql`select workflow_id, count(*)::int as n from workflow_triggers where workflow_id = any(${ids}::int[])
          group by workflow_id`,
      ),
      typedRows<{ workflow_id: number; position: number; sent: number; pending: number }>(
        db,
        sql`select workflow_id, position, count(*) filter (where status <> 'due')::int as sent,
            count(*) filter (where status = 'due')::int as pending
          from workflow_steps where workflow_id = any(${ids}::int[]) group by workflow_id, position`,
      ),
    ]);
    for (const r of fired) triggered.set(r.workflow_id, r.n);
    for (const r of done) steps.set(`${r.workflow_id}:${r.position}`, { sent: r.sent, pending: r.pending });
    return { triggered, steps };
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

  /**
   * Records firings (one per workflow and key: a redelivered event or a second worker adds nothing) and the
   * first step of each new one, due its task's delay after the firing. Returns the due times of the steps it
   * wrote (one per new firing), so that the caller can wake a sender at each once committed.
   */
  async fire(tx: Tx, firings: Firing[]): Promise<Date[]> {
    if (!firings.length) return [];
    const rows = await typedRows<{ due_ms: number }>(
      tx,
      sql`with f as (
          insert into workflow_triggers (workflow_id, team_id, trigger_key, member_id, triggered_at)
          select w.id, w.team_id, v.k, nullif(v.m, ''), v.a::timestamptz
          from unnest(${intArray(firings.map((f) => f.workflowId))}::int[],
            ${textArray(firings.map((f) => f.key))}::text[], ${textArray(firings.map((f) => f.memberId ?? ''))}::text[],
            ${textArray(firings.map((f) => f.at))}::text[]) as v(w, k, m, a)
          join workflows w on w.id = v.w
          on conflict (workflow_id, trigger_key) do nothing
          returning id, workflow_id, team_id, triggered_at)
        insert into workflow_steps (workflow_id, trigger_id, team_id, position, due_at)
        select f.workflow_id, f.id, f.team_id, 0, f.triggered_at + make_interval(secs => t.delay_secs)
        from f join workflow_tasks t on t.workflow_id = f.workflow_id and t.position = 0
        on conflict (trigger_id, position) do nothing
        returning (extract(epoch from due_at) * 1000)::float8 as due_ms`,
    );
    return rows.map((r) => new Date(Math.round(Number(r.due_ms))));
  },

  /** Active workflows of a workspace with this trigger (a channel join: of this channel). */
  async activeOfType(tx: Tx, teamId: string, type: TriggerType, channelId?: string): Promise<number[]> {
    const rows = await typedRows<{ id: number }>(
      tx,
      sql`select id from workflows where team_id = ${teamId} and trigger_type = ${type} and active
        ${channelId ? sql`and channel_id = ${channelId}` : sql``}`,
    );
    return rows.map((r) => r.id);
  },

  /** Whether a member is a person who can get messages (not a bot, not deactivated). */
  async isPerson(tx: Tx, teamId: string, memberId: string): Promise<boolean> {
    const row = await firstRow<{ ok: boolean }>(
      tx,
      sql`select not is_bot and not deleted and member_id <> 'USLACKBOT' as ok from ${slackMembers}
        where team_id = ${teamId} and member_id = ${memberId}`,
    );
    return row?.ok ?? false;
  },

  /** Time triggers whose time has come and that have not fired, locked for this transaction. */
  async lockDueTimeTriggers(tx: Tx, now: Date, limit: number): Promise<WorkflowRecord[]> {
    return await typedRows<WorkflowRecord>(
      tx,
      sql`select ${COLUMNS} from workflows w
        where w.trigger_type = 'time' and w.fired_at is null and w.active
          and w.trigger_at <= ${now.toISOString()}::timestamptz
        order by w.trigger_at limit ${limit} for update skip locked`,
    );
  },

  async markFired(tx: Tx, ids: number[], at: Date): Promise<void> {
    if (!ids.length) return;
    await tx.execute(sql`update workflows set fired_at = ${at.toISOString()}::timestamptz
      where id = any(${intArray(ids)}::int[])`);
  },

  /**
   * Activity, inactivity and level triggers not looked at since `before` (or this one), locked for this
   * transaction; with `levelsNow`, also the Member Level triggers of those workspaces not looked at since its
   * `at` (members there just changed level).
   */
  async lockActivityTriggers(
    tx: Tx,
    before: Date,
    limit: number,
    id?: number,
    levelsNow?: { teams: readonly string[]; at: Date },
  ): Promise<WorkflowRecord[]> {
    const now = levelsNow
      ? sql`or (w.trigger_type = 'level_change' and w.team_id = any(${textArray(levelsNow.teams)}::text[])
          and w.scanned_at < ${levelsNow.at.toISOString()}::timestamptz)`
      : sql``;
    return await typedRows<WorkflowRecord>(
      tx,
      sql`select ${COLUMNS} from workflows w
        where w.trigger_type in ('activity', 'inactivity', 'level_change') and w.active ${id === undefined ? sql`` : sql`and w.id = ${id}`}
          and (w.scanned_at is null or w.scanned_at <= ${before.toISOString()}::timestamptz ${now})
        order by w.scanned_at nulls first limit ${limit} for update skip locked`,
    );
  },

  async markScanned(tx: Tx, id: number, at: Date): Promise<void> {
    await tx.execute(
      sql`update workflows set scanned_at = ${at.toISOString()}::timestamptz where id = ${id}`,
    );
  },

  /**
   * Members who went quiet: their last activity is `days` days old, and they crossed that line in
   * (`from`, `to`] (after the trigger started watching). Bots and deactivated members are left out.
   */
  async crossedInactivity(
    tx: Tx,
    teamId: string,
    days: number,
    from: Date,
    to: Date,
  ): Promise<{ member_id: string; last: string }[]> {
    return await typedRows<{ member_id: string; last: string }>(
      tx,
      sql`select member_id, to_char(last_active_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last
        from ${slackMembers}
        where team_id = ${teamId} and not is_bot and not deleted and member_id <> 'USLACKBOT'
          and last_active_at + make_interval(days => ${days}) > ${from.toISOString()}::timestamptz
          and last_active_at + make_interval(days => ${days}) <= ${to.toISOString()}::timestamptz`,
    );
  },

  /**
   * Claims up to `limit` due steps of active workflows for `leaseMs` (skipping rows another worker holds), so
   * workers split them; a dead worker's claims lapse and come back. A stopped workflow's steps wait.
   */
  async claimDueSteps(limit: number, now: Date, leaseMs: number): Promise<ClaimedStep[]> {
    const at = now.toISOString();
    const until = new Date(now.getTime() + leaseMs).toISOString();
    return await typedRows<ClaimedStep>(
      db,
      sql`with c as (
          update workflow_steps s set claimed_until = ${until}::timestamptz
          from (select s.id from workflow_steps s join workflows w on w.id = s.workflow_id
            where s.status = 'due' and s.due_at <= ${at}::timestamptz and w.active
              and (s.claimed_until is null or s.claimed_until <= ${at}::timestamptz)
            order by s.due_at, s.id limit ${limit} for update of s skip locked) d
          where s.id = d.id
          returning s.id, s.workflow_id, s.trigger_id, s.team_id, s.position)
        select c.id::int as id, c.workflow_id, c.trigger_id::int as trigger_id, c.team_id, c.position, t.member_id
        from c join workflow_triggers t on t.id = c.trigger_id`,
    );
  },

  /** Due steps of active workflows nobody holds (how many senders the tick wakes). */
  async countDueSteps(now: Date): Promise<number> {
    const at = now.toISOString();
    const row = await firstRow<{ n: number }>(
      db,
      sql`select count(*)::int as n from workflow_steps s join workflows w on w.id = s.workflow_id
        where s.status = 'due' and s.due_at <= ${at}::timestamptz and w.active
          and (s.claimed_until is null or s.claimed_until <= ${at}::timestamptz)`,
    );
    return row?.n ?? 0;
  },

  async releaseSteps(ids: number[], at: Date): Promise<void> {
    if (!ids.length) return;
    await db.execute(sql`update workflow_steps set claimed_until = ${at.toISOString()}::timestamptz
      where id = any(${intArray(ids)}::int[]) and status = 'due'`);
  },

  /**
   * Records how claimed steps ended and writes each chain's next step, due its task's delay after now, in one
   * statement: a step is never done without its successor, and a successor is written once. Returns the due
   * times of the steps it wrote.
   */
  async finishSteps(
    rows: {
      id: number;
      status: 'sent' | 'failed';
      receiptId: number | null;
      formInstanceId: number | null;
      error: string | null;
    }[],
    now: Date,
  ): Promise<Date[]> {
    if (!rows.length) return [];
    const at = now.toISOString();
    const next = await typedRows<{ due_ms: number }>(
      db,
      sql`with done as (
        update workflow_steps s set status = x.status, receipt_id = x.receipt_id,
          form_instance_id = x.form_instance_id, error = x.error, sent_at = ${at}::timestamptz, claimed_until = null
        from jsonb_to_recordset(${json(rows.map((r) => ({ id: r.id, status: r.status, receipt_id: r.receiptId, form_instance_id: r.formInstanceId, error: r.error })))}::jsonb)
          as x(id bigint, status text, receipt_id bigint, form_instance_id bigint, error text)
        where s.id = x.id and s.status = 'due'
        returning s.workflow_id, s.trigger_id, s.team_id, s.position)
      insert into workflow_steps (workflow_id, trigger_id, team_id, position, due_at)
      select d.workflow_id, d.trigger_id, d.team_id, d.position + 1,
        ${at}::timestamptz + make_interval(secs => t.delay_secs)
      from done d join workflow_tasks t on t.workflow_id = d.workflow_id and t.position = d.position + 1
      on conflict (trigger_id, position) do nothing
      returning (extract(epoch from due_at) * 1000)::float8 as due_ms`,
    );
    // The next steps' due times, so that a sender can be woken at each.
    return next.map((r) => new Date(Math.round(Number(r.due_ms))));
  },

  /** A workflow's firings, newest first (the trigger history). */
  async triggers(workflowId: number, limit = 5000) {
    return await typedRows<{ id: number; member_id: string | null; triggered_at: string }>(
      db,
      sql`select id::int as id, member_id, triggered_at::text as triggered_at from workflow_triggers
        where workflow_id = ${workflowId} order by triggered_at desc, id desc limit ${limit}`,
    );
  },

  /** A task's steps (sent, failed and pending), newest first, with their receipts' totals. */
  async steps(workflowId: number, position: number, limit = 5000) {
    return await typedRows<{
      id: number;
      status: 'due' | 'sent' | 'failed';
      due_at: string;
      sent_at: string | null;
      member_id: string | null;
      receipt_id: number | null;
      form_instance_id: number | null;
      error: string | null;
      total: number | null;
      sent: number | null;
      failed: number | null;
    }>(
      db,
      sql`select s.id::int as id, s.status, s.due_at::text as due_at, s.sent_at::text as sent_at, t.member_id,
          s.receipt_id::int as receipt_id, s.form_instance_id::int as form_instance_id, s.error,
          r.total, r.sent, r.failed
        from workflow_steps s join workflow_triggers t on t.id = s.trigger_id
          left join ${deliveryReceipts} r on r.id = s.receipt_id
        where s.workflow_id = ${workflowId} and s.position = ${position}
        order by coalesce(s.sent_at, s.due_at) desc, s.id desc limit ${limit}`,
    );
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
