import { ROLE_LABEL, roleAllows, type Role } from '@flywheel/shared/roles';
import { currentWorkspace, useSession } from './session.ts';

/**
 * The signed-in person's role in the current workspace (the server decides on every call; this only shapes the
 * UI). A session stored before roles existed has none: it is treated as Owner until the next /auth/me.
 */
export function useWorkspaceRole(): Role {
  return currentWorkspace(useSession())?.role ?? 'owner';
}

/** The reason a Viewer cannot act, for a disabled button's tooltip. */
export const VIEWER_REASON = "Viewers can't send or change anything here; ask an Owner for the Editor role.";

/**
 * Whether the current role may act (send, schedule, create forms, polls, automations, workflows, buckets, tags):
 * `{ canAct, reason }`, the reason being what a disabled button's tooltip says.
 */
export function useCanAct(): { canAct: boolean; reason: string | null } {
  const role = useWorkspaceRole();
  const canAct = roleAllows(role, 'act');
  return { canAct, reason: canAct ? null : VIEWER_REASON };
}

/** Whether the current role manages the workspace (admins, roles, API keys): Owners only. */
export function useIsOwner(): boolean {
  return roleAllows(useWorkspaceRole(), 'manage');
}

export const roleLabel = (role: Role) => ROLE_LABEL[role];
