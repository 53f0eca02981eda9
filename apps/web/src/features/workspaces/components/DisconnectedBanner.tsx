import { Alert, Button, Group, Text } from '@mantine/core';
import { IconPlugConnectedX, IconRefresh } from '@tabler/icons-react';
import { useStartInstall } from '../api/install-url.ts';

const REASONS: Record<string, string> = {
  app_uninstalled: 'Flywheel was uninstalled from this workspace in Slack.',
  tokens_revoked: 'Flywheel’s access to this workspace was revoked in Slack.',
  token_refresh_failed: 'Slack no longer renews Flywheel’s access to this workspace (token rotation).',
};

type DisconnectedBannerProps = { teamId: string; workspaceName: string; reason: string | null };

/** Shown in the shell when the workspace is disconnected: its data is no longer updated; Add as Admin reconnects. */
export function DisconnectedBanner({ teamId, workspaceName, reason }: DisconnectedBannerProps) {
  const install = useStartInstall();
  const why = (reason && REASONS[reason]) ?? 'Flywheel no longer has access to this workspace in Slack.';
  return (
    <Alert
      variant="light"
      color="orange"
      radius="lg"
      mb="lg"
      icon={<IconPlugConnectedX size={22} />}
      title={`${workspaceName} is disconnected`}
      role="alert"
    >
      <Group justify="space-between" align="center" gap="md">
        <Text fz="sm" maw={720}>
          {why} Its data is no longer updated. Reconnect it with Add as Admin: authorize Flywheel in Slack
          again and live capture resumes.
        </Text>
        <Button
          color="orange"
          size="sm"
          leftSection={<IconRefresh size={16} />}
          loading={install.busy}
          onClick={() => install.start(teamId)}
        >
          Reconnect workspace
        </Button>
      </Group>
    </Alert>
  );
}
