import type { Workspace } from '@flywheel/shared/workspace';
import type { Db } from '../../db/client.ts';
import { forbidden } from '../../lib/errors.ts';
import { workspacesRepo } from './repo.ts';

export type WorkspacesService = ReturnType<typeof workspacesService>;

export const workspacesService = (db: Db) => {
  const repo = workspacesRepo(db);
  return {
    listForUser: (userId: string): Promise<Workspace[]> => repo.listForUser(userId),
    /** Throws 403 unless the user administers the workspace. */
    async assertAdmin(userId: string, teamId: string): Promise<void> {
      if (!(await repo.isAdmin(userId, teamId))) throw forbidden();
    },
  };
};
