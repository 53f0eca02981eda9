import { currentWorkspace, useSession } from '../../lib/session.ts';
import { useWorkspaceStatus } from '../../lib/workspace-data.ts';
import { DisconnectedBanner } from '../../features/workspaces/components/DisconnectedBanner.tsx';
import { ImportProgressCard } from '../../features/workspaces/components/ImportProgressCard.tsx';

/**
 * Above every signed-in page: a warning when the current workspace is disconnected; on Home (`withImport`)
 * the history-import progress card too.
 */
export function WorkspaceBanners({ withImport }: { withImport: boolean }) {
  const workspace = currentWorkspace(useSession());
  const status = useWorkspaceStatus();
  if (!workspace) return null;

  // The status call is the live truth; until it answers, the workspace list (GET /auth/me) says.
  const disconnected = status.data
    ? status.data.status === 'disconnected'
    : workspace.status === 'disconnected';
  if (disconnected) {
    return (
      <DisconnectedBanner
        teamId={workspace.team_id}
        workspaceName={workspace.workspace_name}
        reason={status.data?.disconnect_reason ?? null}
      />
    );
  }
  return withImport ? (
    <ImportProgressCard status={status.data} workspaceName={workspace.workspace_name} />
  ) : null;
}
