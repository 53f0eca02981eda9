import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow, intArray, textArray, typedRows } from '../../db/sql.ts';
import { memberNames as memberNamesOf, channelNames as channelNamesOf } from '../workspace-data/names.ts';
import { memberEvents } from '../workspace-data/table.ts';

/** What a transaction or the database runs SQL on. */
type Runner = Pick<Db, 'execute'>;

export type ActionRecord = {
  id: number;
  team_id: string;
  kind: 'automation' | 'schedule';
  name: string;
  sender: 'bot' | 'admin';
  admin_user: string | null;
  message: string;
  html: string;
  images: string[];
  channel_ids: string[];
  dm_members: string[];
  dm_tags: number[];
  dm_channels: string[];
  send_to_workspace: boolean;
  send_dm: boolean;
  frequency: 'Everyday' | 'Weekly' | 'onetime' | null;
  days: string[];
  time: string | null;
  run_at: string | null;
  next_run_at: string | null;
  last_run_at: string | null;
  active: boolean;
};

export type NewAction = Omit<ActionRecord, 'id' | 'last_run_at' | 'active'> & { created_by: string | null };

export type DueRun = {
  id: number;
  action_id: number;
  team_id: string;
  member_id: string | null;
  run_key: string;
};

const COLUMNS = sql`id, team_id, kind, name, sender, admin_user, message, html, images, channel_ids, dm_members,
  dm_tags, dm_channels, send_to_workspace, send_dm, frequency, days, time, run_at::text as run_at,
  next_run_at::text as next_run_at, last_run_at::text as last_run_at, active`;

const json = (v: unknown) => JSON.stringify(v);

export const actionsRepo = (db: Db) => ({
  async insert(a: NewAction): Promise<number> {
    const [row] = await typedRows<{ id: number }>(
      db,
      sql`insert into actions (team_id, kind, name, sender, admin_user, message, html, images,
          channel_ids, dm_members, dm_tags, dm_channels, send_to_workspace, send_dm, frequency, days, time, run_at,
          next_run_at, created_by)
        values (${a.team_id}, ${a.kind}, ${a.name}, ${a.sender}, ${a.admin_user}, ${a.message}, ${a.html},
          ${json(a.images)}::jsonb, ${json(a.channel_ids)}::jsonb, ${json(a.dm_members)}::jsonb,
          ${json(a.dm_tags)}::jsonb, ${json(a.dm_channels)}::jsonb, ${a.send_to_workspace}, ${a.send_dm},
          ${a.frequency}, ${json(a.days)}::jsonb, ${a.time}, ${a.run_at}::timestamptz, ${a.next_run_at}::timestamptz,
          ${a.created_by})
        returning id`,
    );
    return row!.id;
  },

  async find(teamId: string, id: number): Promise<ActionRecord | null> {
    const [row] = await typedRows<ActionRecord>(
      db,
      sql`select ${COLUMNS} from actions where team_id = ${teamId} and id = ${id}`,
    );
    return row ?? null;
  },

  /** A workspace's automations or schedules, newest first, optionally matching a search in name or message. */
  async list(teamId: string, kind: 'automation' | 'schedule', search?: string): Promise<ActionRecord[]> {
    const like = search ? `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    return await typedRows<ActionRecord>(
      db,
      sql`select ${COLUMNS} from actions where team_id = ${teamId} and kind = ${kind}
        ${like ? sql`and (lower(name) like ${like} or lower(message) like ${like})` : sql``}
        order by id desc limit 1000`,
    );
  },

  async update(
    teamId: string,
    id: number,
    patch: { dm_members?: string[]; channel_ids?: string[]; message?: string; html?: string },
  ): Promise<void> {
    await db.execute(sql`update actions set
        dm_members = coalesce(${patch.dm_members ? json(patch.dm_members) : null}::jsonb, dm_members),
        channel_ids = coalesce(${patch.channel_ids ? json(patch.channel_ids) : null}::jsonb, channel_ids),
        message = coalesce(${patch.message ?? null}, message),
        html = coalesce(${patch.html ?? null}, html)
      where team_id = ${teamId} and id = ${id}`);
  },

  /** Deletes an action; its pending runs go with it (nothing more is sent). */
  /** A workspace's active Every Day and Weekly schedules (what its days plan to send). */
  async recurringSchedules(teamId: string): Promise<ActionRecord[]> {
    return await typedRows<ActionRecord>(
      db,
      sql`select ${COLUMNS} from actions where team_id = ${teamId} and kind = 'schedule' and active
        and frequency in ('Everyday', 'Weekly') and next_run_at is not null`,
    );
  },

  async remove(teamId: string, id: number): Promise<boolean> {
    return (
      (
        await typedRows<unknown>(
          db,
          sql`delete from actions where team_id = ${teamId} and id = ${id} returning id`,
        )
      ).length > 0
    );
  },

  /** Schedules whose next run is due, locked for this transaction (another worker skips them). */
  async lockDueSchedules(
    tx: Runner,
    limit: number,
    now: Date,
  ): Promise<(ActionRecord & { late_ms: number })[]> {
    const at = now.toISOString();
    return await typedRows<ActionRecord & { late_ms: number }>(
      tx,
      sql`select ${COLUMNS},
          (extract(epoch from (${at}::timestamptz - next_run_at)) * 1000)::float8 as late_ms
        from actions where active and next_run_at is not null and next_run_at <= ${at}::timestamptz
          and kind = 'schedule'
        order by next_run_at limit ${limit} for update skip locked`,
    );
  },

  /** A batch of schedules' runs (a run already written is left as it is). */
  async addRuns(
    tx: Runner,
    runs: { actionId: number; teamId: string; key: string; dueAt: string; status: 'due' | 'skipped' }[],
  ): Promise<void> {
    if (!runs.length) return;
    await tx.execute(sql`insert into action_runs (action_id, team_id, run_key, member_id, due_at, status)
      select a, t, k, null, d, s
      from unnest(${intArray(runs.map((r) => r.actionId))}::int[], ${textArray(runs.map((r) => r.teamId))}::text[],
        ${textArray(runs.map((r) => r.key))}::text[], ${textArray(runs.map((r) => r.dueAt))}::timestamptz[],
        ${textArray(runs.map((r) => r.status))}::text[]) as v(a, t, k, d, s)
      on conflict (action_id, run_key) do nothing`);
  },

  /** Moves a batch of schedules on: their next run (none: done, inactive) and when they last ran. */
  async advanceMany(tx: Runner, rows: { id: number; next: string | null; ranAt: string }[]): Promise<void> {
    if (!rows.length) return;
    // An empty string stands for "no next run" in the text[] literal.
    await tx.execute(sql`update actions a set next_run_at = nullif(v.n, '')::timestamptz,
        last_run_at = v.r::timestamptz, active = v.n <> ''
      from unnest(${intArray(rows.map((r) => r.id))}::int[], ${textArray(rows.map((r) => r.next ?? ''))}::text[],
        ${textArray(rows.map((r) => r.ranAt))}::text[]) as v(id, n, r)
      where a.id = v.id`);
  },

  /**
   * A member joined (team_join, or a deactivated member back): a run of every active automation of the
   * workspace, keyed by member and join time, so a redelivered event adds nothing and a rejoin is a new run.
   */
  async addJoinRuns(tx: Runner, teamId: string, memberId: string, joinedAt: string): Promise<number> {
    return (
      await typedRows<unknown>(
        tx,
        sql`insert into action_runs (action_id, team_id, run_key, member_id, due_at, status)
        select id, team_id, ${`join:${memberId}:${joinedAt}`}, ${memberId}, ${joinedAt}::timestamptz, 'due'
        from actions where team_id = ${teamId} and kind = 'automation' and active
        on conflict (action_id, run_key) do nothing returning id`,
      )
    ).length;
  },

  /**
   * Claims up to `limit` due runs for `leaseMs` (skipping rows another worker holds or is claiming), so any
   * number of workers split a minute's runs between them; a dead worker's claims lapse and come back.
   */
  async claimDueRuns(limit: number, now: Date, leaseMs: number): Promise<DueRun[]> {
    const at = now.toISOString();
    const until = new Date(now.getTime() + leaseMs).toISOString();
    return await typedRows<DueRun>(
      db,
      sql`update action_runs r set claimed_until = ${until}::timestamptz
        from (select id from action_runs
          where status = 'due' and due_at <= ${at}::timestamptz
            and (claimed_until is null or claimed_until <= ${at}::timestamptz)
          order by due_at, id limit ${limit} for update skip locked) c
        where r.id = c.id
        returning r.id::int as id, r.action_id, r.team_id, r.member_id, r.run_key`,
    );
  },

  /** Due runs nobody holds (how many senders the tick should wake). */
  async countDueRuns(now: Date): Promise<number> {
    const at = now.toISOString();
    const row = await firstRow<{ n: number }>(
      db,
      sql`select count(*)::int as n from action_runs where status = 'due' and due_at <= ${at}::timestamptz
        and (claimed_until is null or claimed_until <= ${at}::timestamptz)`,
    );
    return row?.n ?? 0;
  },

  /** Gives claimed runs back, to be claimed again from `at`. */
  async releaseRuns(ids: number[], at: Date): Promise<void> {
    if (!ids.length) return;
    await db.execute(sql`update action_runs set claimed_until = ${at.toISOString()}::timestamptz
      where id = any(${intArray(ids)}::int[]) and status = 'due'`);
  },

  /** Records how claimed runs ended, in one statement. */
  async finishRuns(
    runs: { id: number; status: 'sent' | 'failed'; receiptId: number | null; error: string | null }[],
  ): Promise<void> {
    if (!runs.length) return;
    await db.execute(sql`update action_runs r set status = x.status, receipt_id = x.receipt_id, error = x.error
      from jsonb_to_recordset(${json(runs.map((f) => ({ id: f.id, status: f.status, receipt_id: f.receiptId, error: f.error })))}::jsonb)
        as x(id int, status text, receipt_id int, error text)
      where r.id = x.id and r.status = 'due'`);
  },

  /** These actions, by id (any workspace: runs name their own). */
  async findMany(ids: number[]): Promise<Map<number, ActionRecord>> {
    if (!ids.length) return new Map();
    const rows = await typedRows<ActionRecord>(
      db,
      sql`select ${COLUMNS} from actions where id = any(${intArray([...new Set(ids)])}::int[])`,
    );
    return new Map(rows.map((a) => [Number(a.id), a]));
  },

  memberNames: (teamId: string, ids: string[]) => memberNamesOf(db, teamId, ids),

  channelNames: (teamId: string, ids: string[]) => channelNamesOf(db, teamId, ids),

  /**
   * The join workspace data recorded for this event (team_join, or a deactivated member back), as its canonical
   * time: a redelivery of the same join finds the same row (joins are recorded once within a day); null when
   * the event recorded no join (a profile change).
   */
  async recordedJoin(tx: Runner, teamId: string, memberId: string, at: Date): Promise<string | null> {
    const [row] = await typedRows<{ at: string }>(
      tx,
      sql`select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
        from ${memberEvents} where team_id = ${teamId} and member_id = ${memberId} and kind = 'join'
          and at between ${at.toISOString()}::timestamptz - interval '1 day' and ${at.toISOString()}::timestamptz + interval '1 day'
        order by at desc limit 1`,
    );
    return row?.at ?? null;
  },
});
export type ActionsRepo = ReturnType<typeof actionsRepo>;
