import { sql } from 'drizzle-orm';
import type { Task } from '@flywheel/shared/analytics';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { typedResult } from '../../db/sql.ts';
import { LOCKS, xactLock } from '../../db/locks.ts';

type Status = Task['status'];
const columns = sql`id, title, description, status, position`;
const rows = async (q: Promise<unknown>) => ((await q) as { rows: Task[] }).rows;

/** The Home task board (home_tasks): positions are 0..n-1 inside each (team, status) column. */
export const tasksRepo = (db: Db) => ({
  list: (teamId: string) =>
    rows(
      db.execute(sql`select ${columns} from home_tasks where team_id = ${teamId}
        order by case status when 'todo' then 0 when 'doing' then 1 else 2 end, position, id`),
    ),

  async find(tx: Tx, teamId: string, id: number): Promise<Task | undefined> {
    const [t] = await rows(
      tx.execute(sql`select ${columns} from home_tasks where team_id = ${teamId} and id = ${id} for update`),
    );
    return t;
  },

  async create(teamId: string, t: { title: string; description: string; status: Status }): Promise<Task> {
    return db.transaction(async (tx) => {
      // One writer per board at a time keeps positions dense.
      await xactLock(tx, LOCKS.homeTasks(teamId));
      const [row] = await rows(
        tx.execute(sql`insert into home_tasks (team_id, title, description, status, position)
          values (${teamId}, ${t.title}, ${t.description}, ${t.status},
            (select count(*)::int from home_tasks where team_id = ${teamId} and status = ${t.status}))
          returning ${columns}`),
      );
      return row!;
    });
  },

  async edit(teamId: string, id: number, t: { title?: string; description?: string }) {
    const [row] = await rows(
      db.execute(sql`update home_tasks set title = coalesce(${t.title ?? null}, title),
          description = coalesce(${t.description ?? null}, description), updated_at = now()
        where team_id = ${teamId} and id = ${id} returning ${columns}`),
    );
    return row;
  },

  /** Moves a task to `status` at `position` (clamped); both columns are renumbered densely. */
  async move(teamId: string, id: number, status: Status, position: number): Promise<Task | undefined> {
    return db.transaction(async (tx) => {
      await xactLock(tx, LOCKS.homeTasks(teamId));
      const task = await tasksRepo(db).find(tx, teamId, id);
      if (!task) return undefined;
      // Close the gap it leaves, then open one where it lands.
      await tx.execute(sql`update home_tasks set position = position - 1
        where team_id = ${teamId} and status = ${task.status} and position > ${task.position}`);
      const [{ n }] = (
        await typedResult<{ n: number }>(
          tx,
          sql`select count(*)::int as n from home_tasks
          where team_id = ${teamId} and status = ${status} and id <> ${id}`,
        )
      ).rows as [{ n: number }];
      const at = Math.min(position, n);
      await tx.execute(sql`update home_tasks set position = position + 1
        where team_id = ${teamId} and status = ${status} and position >= ${at} and id <> ${id}`);
      const [row] = await rows(
        tx.execute(sql`update home_tasks set status = ${status}, position = ${at}, updated_at = now()
          where id = ${id} returning ${columns}`),
      );
      return row;
    });
  },

  async remove(teamId: string, id: number): Promise<boolean> {
    return db.transaction(async (tx) => {
      await xactLock(tx, LOCKS.homeTasks(teamId));
      const [gone] = await rows(
        tx.execute(sql`delete from home_tasks where team_id = ${teamId} and id = ${id} returning ${columns}`),
      );
      if (!gone) return false;
      await tx.execute(sql`update home_tasks set position = position - 1
        where team_id = ${teamId} and status = ${gone.status} and position > ${gone.position}`);
      return true;
    });
  },
});
