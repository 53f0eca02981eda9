import { useState } from 'react';
import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { logout } from '../../lib/logout.ts';
import { useSession } from '../../lib/session.ts';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]?.[0], parts[parts.length - 1]?.[0]] : [parts[0]?.[0]];
  return letters.join('').toUpperCase() || '?';
}

/** Username, email and 'Log Out'. */
export function ProfileMenu() {
  const session = useSession();
  const [leaving, setLeaving] = useState(false);
  const name = session?.username ?? '';

  return (
    <Menu position="bottom-end" width={240} shadow="md" radius="md">
      <Menu.Target>
        <UnstyledButton aria-label={`Profile: ${initials(name)}`} style={{ borderRadius: '50%' }}>
          <Avatar color="brand" variant="filled" radius="xl" size={36}>
            {initials(name)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <div style={{ padding: '8px 12px' }}>
          <Text fz="sm" fw={600} truncate>
            {name}
          </Text>
          <Text fz="xs" c="dimmed" truncate>
            {session?.useremail}
          </Text>
        </div>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          disabled={leaving}
          closeMenuOnClick={false}
          onClick={() => {
            setLeaving(true);
            void logout();
          }}
        >
          Log Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
