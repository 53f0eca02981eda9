import { and, asc, eq } from 'drizzle-orm';
import type { Workspace } from '@flywheel/shared/workspace';
import type { Db } from '../../db/client.ts';
import { workspaceAdmins, workspaces } from './table.ts';

export const workspacesRepo = (db: Db) => ({
  async listForUser(userId: string): Promise<Workspace[]> {
    return db
      .select({
        team_id: workspaces.teamId,
        workspace_name: workspaces.name,
        domain: workspaces.domain,
        timezone: workspaces.timezone,
      })
      .from(workspaceAdmins)
      .innerJoin(workspaces, eq(workspaces.teamId, workspaceAdmins.teamId))
      .where(eq(workspaceAdmins.userId, userId))
      .orderBy(asc(workspaceAdmins.createdAt), asc(workspaces.name));
  },
  async isAdmin(userId: string, teamId: string): Promise<boolean> {
    const rows = await db
      .select({ teamId: workspaceAdmins.teamId })
      .from(workspaceAdmins)
      .where(and(eq(workspaceAdmins.userId, userId), eq(workspaceAdmins.teamId, teamId)))
      .limit(1);
    return rows.length === 1;
  },
});
