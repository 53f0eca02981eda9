import type { Task } from '@flywheel/shared/analytics';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { tasksRepo } from './repo.ts';

export type TasksService = ReturnType<typeof tasksService>;

const missing = (id: number) => notFound(`Task ${id} was not found in this workspace`);

/** The Home task board: create, edit, drag (reorder or move between todo, doing and done), delete. */
export const tasksService = (db: Db) => {
  const repo = tasksRepo(db);
  return {
    list: (teamId: string) => repo.list(teamId),
    create: (teamId: string, t: { title: string; description: string; status: Task['status'] }) =>
      repo.create(teamId, t),
    async edit(teamId: string, id: number, t: { title?: string; description?: string }) {
      const row = await repo.edit(teamId, id, t);
      if (!row) throw missing(id);
      return row;
    },
    async move(teamId: string, id: number, status: Task['status'], position: number) {
      const row = await repo.move(teamId, id, status, position);
      if (!row) throw missing(id);
      return repo.list(teamId);
    },
    async remove(teamId: string, id: number) {
      if (!(await repo.remove(teamId, id))) throw missing(id);
    },
  };
};
