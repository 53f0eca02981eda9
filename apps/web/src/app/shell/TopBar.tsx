import { Box, Group } from '@mantine/core';
import { currentWorkspace, useSession } from '../../lib/session.ts';
import { useWorkspaceStatus } from '../../entities/workspace/index.ts';
import { useIsOwner } from '../../lib/role.ts';
import { AddAsAdminButton } from '../../features/workspaces/components/AddAsAdminButton.tsx';
import { InviteAdminButton } from '../../features/workspaces/components/InviteAdminButton.tsx';
import { ImportIndicator } from '../../features/workspaces/components/ImportIndicator.tsx';
import { LoadingIndicator } from './LoadingIndicator.tsx';
import { MemberSearch } from './MemberSearch.tsx';
import { NotificationsMenu } from '../../features/notifications/NotificationsMenu.tsx';
import { ProfileMenu } from './ProfileMenu.tsx';
import { WorkspaceMenu } from './WorkspaceMenu.tsx';

/** Member search, loading indicator, 'Add as Admin' and (for an Owner) 'Invite an admin', workspaces, notifications, profile. */
export function TopBar() {
  const workspace = currentWorkspace(useSession());
  const status = useWorkspaceStatus();
  const owner = useIsOwner();

  return (
    <Group h="100%" justify="space-between" gap="md" wrap="nowrap">
      <Box visibleFrom="sm">
        <MemberSearch />
      </Box>
      <Group gap="sm" wrap="nowrap" ml="auto">
        <LoadingIndicator />
        <ImportIndicator status={status.data} />
        {workspace ? (
          <Box visibleFrom="sm">
            <Group gap="xs" wrap="nowrap">
              <AddAsAdminButton teamId={workspace.team_id} />
              {owner ? (
                <InviteAdminButton teamId={workspace.team_id} workspaceName={workspace.workspace_name} />
              ) : null}
            </Group>
          </Box>
        ) : null}
        <WorkspaceMenu />
        <NotificationsMenu />
        <ProfileMenu />
      </Group>
    </Group>
  );
}
