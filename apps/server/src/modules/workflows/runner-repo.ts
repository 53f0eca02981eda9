import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, intArray, typedRows } from '../../db/sql.ts';

/*
 * The due steps (runner.ts): claimed by a worker, given back, and finished with each chain's next step written.
 */

/** A step a worker claimed: what it sends is its workflow's task at `position`, for the trigger's member. */
export type ClaimedStep = {
  id: number;
  workflow_id: number;
  trigger_id: number;
  team_id: string;
  position: number;
  member_id: string | null;
};

const json = (v: unknown) => JSON.stringify(v);

export const workflowRunnerRepo = (db: Db) => ({
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
});
export type WorkflowRunnerRepo = ReturnType<typeof workflowRunnerRepo>;
