import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { intArray, textArray, typedRows, type Tx } from '../../db/sql.ts';
import type { InstanceAudience } from './table.ts';
import { FORM_COLUMNS, INSTANCE_COLUMNS, type FormRecord, type InstanceRecord } from './repo.ts';

/*
 * The due work (runner.ts, and workflows' form steps): recurring forms planned into instances, instances held
 * for a send now or a step, due ones claimed, given back and finished.
 */

const json = (v: unknown) => JSON.stringify(v);

export const formRunnerRepo = (db: Db) => ({
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
});
export type FormRunnerRepo = ReturnType<typeof formRunnerRepo>;
