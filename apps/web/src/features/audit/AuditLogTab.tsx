import { Stack, Text } from '@mantine/core';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { AuditLogPanel } from './components/AuditLogPanel.tsx';

/** Settings › Audit log: the current workspace's log, under the tab's own heading. */
export function AuditLogTab() {
  const { teamId } = useCurrentTeam();
  return (
    <Stack gap="sm">
      <div>
        <Text fw={600} fz="lg" component="h2" m={0}>
          Audit log
        </Text>
        <Text fz="sm" c="dimmed">
          Who did what in this workspace, and when: sends, changes, invitations and logins.
        </Text>
      </div>
      <AuditLogPanel teamId={teamId} />
    </Stack>
  );
}
