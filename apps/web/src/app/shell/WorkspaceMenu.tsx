import { Badge, Button, Loader, Menu, ScrollArea, Text } from '@mantine/core';
import { IconBrandSlack, IconCheck, IconChevronDown, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { currentWorkspace, setCurrentWorkspace, useSession } from '../../lib/session.ts';
import { useStartInstall } from '../../features/workspaces/api/install-url.ts';

/**
 * Workspace dropdown (150px with scroll); picking a workspace reloads the page; 'Create Workspace'
 * leads to Slack's authorization page for a new workspace.
 */
export function WorkspaceMenu() {
  const session = useSession();
  const selected = currentWorkspace(session);
  const workspaces = session?.workspace ?? [];
  const install = useStartInstall();

  return (
    <Menu position="bottom-end" width={260} shadow="md" radius="md" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          size="sm"
          radius="md"
          maw={{ base: 130, sm: 220 }}
          rightSection={<IconChevronDown size={16} />}
          // The visible name is part of the accessible one (axe: label-content-name-mismatch).
          aria-label={`Workspaces: ${selected?.workspace_name ?? 'No workspace'}`}
        >
          <Text fz="sm" fw={600} truncate>
            {selected?.workspace_name ?? 'No workspace'}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Workspaces</Menu.Label>
        <ScrollArea.Autosize mah={150} type="auto">
          {workspaces.length === 0 ? (
            <Text fz="sm" c="dimmed" px="sm" py={6}>
              No workspaces yet
            </Text>
          ) : (
            workspaces.map((w) => (
              <Menu.Item
                key={w.team_id}
                rightSection={
                  w.team_id === selected?.team_id ? (
                    <IconCheck size={16} />
                  ) : w.status === 'disconnected' ? (
                    <Badge size="xs" variant="light" color="gray">
                      Disconnected
                    </Badge>
                  ) : null
                }
                onClick={() => {
                  if (w.team_id === selected?.team_id) return;
                  setCurrentWorkspace(w.team_id);
                  window.location.reload();
                }}
              >
                {w.workspace_name}
              </Menu.Item>
            ))
          )}
        </ScrollArea.Autosize>
        <Menu.Divider />
        <Menu.Item
          leftSection={install.busy ? <Loader size={16} /> : <IconPlus size={16} />}
          disabled={install.busy}
          closeMenuOnClick={false}
          onClick={() => install.start()}
        >
          Create Workspace
        </Menu.Item>
        <Menu.Item component={Link} to="/dashboard/slack-app" leftSection={<IconBrandSlack size={16} />}>
          Slack app setup
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
