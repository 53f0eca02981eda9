import { Button, Tooltip } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { useStartInstall } from '../api/install-url.ts';

type AddAsAdminButtonProps = { teamId: string };

/**
 * Top bar 'Add as Admin': Slack's authorize page for the current workspace with the user scopes (the install asks
 * for none), so messages can be sent as you. Also how a disconnected workspace is reconnected.
 */
export function AddAsAdminButton({ teamId }: AddAsAdminButtonProps) {
  const install = useStartInstall();
  return (
    <Tooltip label="Authorize Flywheel in Slack so messages can be sent as you" withArrow openDelay={400}>
      <Button
        variant="light"
        size="sm"
        radius="md"
        leftSection={<IconUserShield size={16} />}
        loading={install.busy}
        onClick={() => install.start(teamId)}
      >
        Add as Admin
      </Button>
    </Tooltip>
  );
}
