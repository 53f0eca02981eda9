import { NavLink, ScrollArea, Stack, Text, Paper, Group, ThemeIcon } from '@mantine/core';
import {
  IconBolt,
  IconBuildingCommunity,
  IconChartBar,
  IconHome,
  IconLayoutDashboard,
  IconReceipt,
  IconRoute,
  IconSettings,
  IconUsers,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { currentWorkspace, useSession } from '../../lib/session.ts';

const NAV = [
  { label: 'Home', to: '/dashboard/home', icon: IconHome },
  { label: 'Analytics', to: '/dashboard/analytics', icon: IconChartBar },
  { label: 'Actions', to: '/dashboard/actions', icon: IconBolt },
  { label: 'Members', to: '/dashboard/members', icon: IconUsers },
  { label: 'Workflows', to: '/dashboard/workflows', icon: IconRoute },
  { label: 'Receipts', to: '/dashboard/receipts', icon: IconReceipt },
  { label: 'Settings', to: '/dashboard/settings', icon: IconSettings },
] as const;

const CREATE = { label: 'Create Dashboard', to: '/dashboard/createdashboard', icon: IconLayoutDashboard };

function workspaceHost(domain: string): string | null {
  if (!domain) return null;
  return domain.includes('.') ? domain : `${domain}.slack.com`;
}

function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Home, Analytics, Actions, Members, Workflows, Receipts, Settings; a user without a workspace sees only 'Create Dashboard'. */
export function Sidebar() {
  const session = useSession();
  const { pathname } = useLocation();
  const hasWorkspace = (session?.workspace.length ?? 0) > 0;
  const items = hasWorkspace ? NAV : [CREATE];
  const workspace = currentWorkspace(session);

  return (
    <Stack h="100%" gap="md" justify="space-between">
      <ScrollArea style={{ flex: 1 }} type="never">
        <Text tt="uppercase" fz={11} fw={700} c="dimmed" px="sm" mb={8} style={{ letterSpacing: '0.06em' }}>
          {hasWorkspace ? 'Workspace' : 'Get started'}
        </Text>
        <Stack gap={4}>
          {items.map(({ label, to, icon: Icon }) => {
            const active = isActive(pathname, to) || (!hasWorkspace && pathname === '/createdashboard');
            return (
              <NavLink
                key={to}
                component={Link}
                to={to}
                label={label}
                active={active}
                aria-current={active ? 'page' : undefined}
                leftSection={<Icon size={20} stroke={1.7} />}
                variant="light"
                fw={active ? 600 : 500}
                styles={{ root: { borderRadius: 'var(--mantine-radius-md)', padding: '10px 12px' } }}
              />
            );
          })}
        </Stack>
      </ScrollArea>
      {workspace ? (
        <Paper withBorder p="sm" radius="md" bg="gray.0">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon variant="light" radius="md" size={34}>
              <IconBuildingCommunity size={18} />
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Text fz="sm" fw={600} truncate>
                {workspace.workspace_name}
              </Text>
              <Text fz="xs" c="dimmed" truncate>
                {workspaceHost(workspace.domain) ?? workspace.team_id}
              </Text>
            </div>
          </Group>
        </Paper>
      ) : null}
    </Stack>
  );
}
