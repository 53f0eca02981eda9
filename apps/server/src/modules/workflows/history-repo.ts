import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { intArray, typedRows } from '../../db/sql.ts';
import { deliveryReceipts } from '../delivery/table.ts';

/** What the pages read back (history.ts, core.ts's rows): how often workflows fired, their firings and steps. */
export const workflowHistoryRepo = (db: Db) => ({
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
});
export type WorkflowHistoryRepo = ReturnType<typeof workflowHistoryRepo>;
