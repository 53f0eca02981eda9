import type { ReactNode } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { LazyModal } from './LazyModal.tsx';

type ConfirmDeleteModalProps = {
  opened: boolean;
  /** 'Delete poll?' */
  title: string;
  /** What is deleted, by name: 'The poll "Lunch?" will be deleted.' */
  what: ReactNode;
  /** What else goes with it (its Slack message, its responses), or what stays; each a line. */
  consequences?: ReactNode[];
  /** The red button's text (default 'Delete'). */
  confirmLabel?: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
};

/**
 * The second step of every delete that cannot be undone: says what goes (and what else goes with it), with
 * Cancel first and the red button second. Cancel, Escape or a click outside keep everything.
 */
export function ConfirmDeleteModal({
  opened,
  title,
  what,
  consequences = [],
  confirmLabel = 'Delete',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDeleteModalProps) {
  return (
    <LazyModal opened={opened} onClose={() => !busy && onCancel()} title={title} size="md">
      <Stack gap="sm">
        <Text fz="sm">{what}</Text>
        {consequences.map((c, i) => (
          <Text key={i} fz="sm" c="dimmed">
            {c}
          </Text>
        ))}
        <Text fz="sm" c="dimmed">
          This cannot be undone.
        </Text>
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onCancel} disabled={busy} data-autofocus>
            Cancel
          </Button>
          <Button color="red.9" onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </LazyModal>
  );
}
