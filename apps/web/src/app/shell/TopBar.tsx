import { Box, Group } from '@mantine/core';
import { LoadingIndicator } from './LoadingIndicator.tsx';
import { MemberSearch } from './MemberSearch.tsx';
import { NotificationsMenu } from './NotificationsMenu.tsx';
import { ProfileMenu } from './ProfileMenu.tsx';
import { WorkspaceMenu } from './WorkspaceMenu.tsx';

export function TopBar() {
  return (
    <Group h="100%" justify="space-between" gap="md" wrap="nowrap">
      <Box visibleFrom="sm">
        <MemberSearch />
      </Box>
      <Group gap="sm" wrap="nowrap" ml="auto">
        <LoadingIndicator />
        <WorkspaceMenu />
        <NotificationsMenu />
        <ProfileMenu />
      </Group>
    </Group>
  );
}
