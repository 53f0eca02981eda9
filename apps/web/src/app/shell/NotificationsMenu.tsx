import { ActionIcon, Menu, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';

/** An empty notifications menu. */
export function NotificationsMenu() {
  return (
    <Menu position="bottom-end" width={280} shadow="md" radius="md">
      <Menu.Target>
        <ActionIcon variant="default" size={36} radius="md" aria-label="Notifications">
          <IconBell size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Notifications</Menu.Label>
        <Stack align="center" gap={6} py="md" px="sm">
          <ThemeIcon variant="light" color="gray" radius="xl" size={40}>
            <IconBellOff size={20} />
          </ThemeIcon>
          <Text fz="sm" fw={500}>
            You&apos;re all caught up
          </Text>
          <Text fz="xs" c="dimmed" ta="center">
            No notifications yet.
          </Text>
        </Stack>
      </Menu.Dropdown>
    </Menu>
  );
}
