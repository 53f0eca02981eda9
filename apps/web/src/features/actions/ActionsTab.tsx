import { useCallback, useState } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ActionRow } from '@flywheel/shared/actions';
import { errorMessage } from '../../lib/api-client.ts';
import { currentWorkspace, useSession } from '../../lib/session.ts';
import { useActions } from './action-messages/api/list-actions.ts';
import { ActionsTable } from './action-messages/ActionsTable.tsx';
import { CreateTriggerWizard } from './automate/CreateTriggerWizard.tsx';
import { EditActionModal } from './action-messages/EditActionModal.tsx';
import { ScheduleWizard } from './schedule/ScheduleWizard.tsx';
import { ActGate } from '../../components/ActGate.tsx';

const TEXT = {
  automation: {
    title: 'Triggers',
    description: 'Messages sent automatically when something happens in your workspace.',
    create: 'Create Trigger',
  },
  schedule: {
    title: 'Schedule Table',
    description: "Messages sent one time, every day or weekly, on your workspace's clock.",
    create: 'Schedule Message',
  },
} as const;

/** The Automate and Schedule tabs: the table, its create wizard and the edit popup. */
export function ActionsTab({ kind }: { kind: ActionRow['kind'] }) {
  const q = useActions(kind);
  const session = useSession();
  const timeZone = currentWorkspace(session)?.timezone || 'UTC';
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ActionRow | null>(null);
  const onEdit = useCallback((row: ActionRow) => setEditing(row), []);
  const close = useCallback(() => setCreating(false), []);
  const text = TEXT[kind];

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <div>
            <Text fw={600} fz="lg" component="h2" m={0}>
              {text.title}
            </Text>
            <Text fz="sm" c="dimmed">
              {text.description}
            </Text>
          </div>
          <ActGate>
            {(viewer) => (
              <Button
                leftSection={<IconPlus size={16} />}
                onClick={() => setCreating(true)}
                disabled={viewer}
              >
                {text.create}
              </Button>
            )}
          </ActGate>
        </Group>
        <ActionsTable
          kind={kind}
          rows={q.data}
          loading={q.isPending && q.fetchStatus !== 'idle'}
          error={q.error ? errorMessage(q.error) : null}
          onEdit={onEdit}
        />
      </Stack>
      {creating && kind === 'automation' ? <CreateTriggerWizard opened onClose={close} /> : null}
      {creating && kind === 'schedule' ? <ScheduleWizard opened onClose={close} timeZone={timeZone} /> : null}
      <EditActionModal row={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
