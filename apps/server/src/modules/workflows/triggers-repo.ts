import { sql } from 'drizzle-orm';
import { firstRow, intArray, textArray, typedRows, type Tx } from '../../db/sql.ts';
import type { TriggerType } from '@flywheel/shared/workflows';
import { slackMembers } from '../workspace-data/table.ts';
import { WORKFLOW_COLUMNS as COLUMNS, type WorkflowRecord } from './repo.ts';

/*
 * What fires a workflow, each statement in the caller's transaction: firings recorded with their first steps
 * (listeners.ts for Slack's events, triggers.ts for time and activity), the triggers due a look locked, and the
 * members who went quiet.
 */

/** A firing of a trigger to record (and its first step). */
export type Firing = { workflowId: number; key: string; memberId: string | null; at: string };

export const workflowTriggersRepo = {
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
};
