import { Alert } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useCanAct } from '../../lib/role.ts';
import { currentWorkspace, useSession } from '../../lib/session.ts';
import { useWorkspaceStatus } from '../../entities/workspace/index.ts';
import { DisconnectedBanner } from '../../features/workspaces/components/DisconnectedBanner.tsx';
import { ImportProgressCard } from '../../features/workspaces/components/ImportProgressCard.tsx';

/**
 * Above every signed-in page: a warning when the current workspace is disconnected; on Home (`withImport`)
 * the history-import progress card too; for a Viewer, a line saying what their role lets them do.
 */
export function WorkspaceBanners({ withImport }: { withImport: boolean }) {
  const workspace = currentWorkspace(useSession());
  const status = useWorkspaceStatus();
  const { canAct } = useCanAct();
  if (!workspace) return null;
  const viewer = canAct ? null : (
    <Alert
      role="note"
      color="blue"
      variant="light"
      radius="md"
      mb="md"
      icon={<IconEye size={18} aria-hidden />}
    >
      You are a Viewer in {workspace.workspace_name}: you can read every dashboard and export, but sending and
      changes need the Editor role. An Owner can change your role under Settings.
    </Alert>
  );

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
  return (
    <>
      {viewer}
      {withImport ? (
        <ImportProgressCard status={status.data} workspaceName={workspace.workspace_name} />
      ) : null}
    </>
  );
}
