import { useEffect } from 'react';
import { Group, Radio, Select, Stack, Text } from '@mantine/core';
import { useAuthorizedAdmins } from '../entities/workspace/index.ts';
import type { SenderChoice } from '../entities/messages/index.ts';

type SenderPickerProps = {
  value: SenderChoice;
  onChange(next: SenderChoice): void;
  error?: string | null;
  disabled?: boolean;
  /** The radio group's label (default 'Sender'). */
  label?: string;
  /** The radio group's size, to match the inputs around it (default sm). */
  size?: 'sm' | 'md';
};

/**
 * Bot or Admin; for Admin, which one, from the admins who authorized the app
 * (GET /getauthorizedadmins), the first by default.
 */
export function SenderPicker({
  value,
  onChange,
  error,
  disabled,
  label = 'Sender',
  size = 'sm',
}: SenderPickerProps) {
  const admins = useAuthorizedAdmins();
  // One option per Slack user: an admin who authorized more than once (another Flywheel account, a second
  // install) is listed once (Mantine refuses duplicate values, and the page would fail).
  const options = (admins.data ?? [])
    .map((a) => ({ value: a.value || a.user_id, label: a.label || a.real_name }))
    .filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i);
  const firstAdmin = options[0]?.value ?? null;

  // Admin chosen before the list arrived: the first admin, by default.
  useEffect(() => {
    if (value.sender === 'admin' && !value.adminUser && firstAdmin)
      onChange({ ...value, adminUser: firstAdmin });
  }, [value, firstAdmin, onChange]);

  return (
    <Stack gap="xs">
      <Radio.Group
        label={label}
        size={size}
        value={value.sender ?? ''}
        error={error}
        onChange={(v) =>
          onChange(
            v === 'admin'
              ? { sender: 'admin', adminUser: value.adminUser ?? firstAdmin }
              : { sender: 'bot', adminUser: null },
          )
        }
      >
        <Group gap="lg" mt={4}>
          <Radio value="bot" label="Bot" disabled={disabled} size={size} />
          <Radio value="admin" label="Admin" disabled={disabled} size={size} />
        </Group>
      </Radio.Group>
      {value.sender === 'admin' ? (
        options.length > 0 || admins.isPending ? (
          <Select
            label="Which admin"
            placeholder={admins.isPending ? 'Loading admins…' : 'Choose an admin'}
            data={options}
            value={value.adminUser}
            onChange={(adminUser) => onChange({ sender: 'admin', adminUser })}
            allowDeselect={false}
            searchable
            disabled={disabled}
          />
        ) : (
          <Text fz="sm" c="dimmed">
            No admin has authorized Flywheel yet: use Add as Admin first, or send as the Bot.
          </Text>
        )
      ) : null}
    </Stack>
  );
}
