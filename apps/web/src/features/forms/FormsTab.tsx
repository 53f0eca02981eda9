import { useCallback, useState } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { FormRow } from '@flywheel/shared/forms';
import { errorMessage } from '../../lib/api-client.ts';
import { currentWorkspace, useSession } from '../../lib/session.ts';
import { useForms } from '../../entities/forms/index.ts';
import { CreateFormWizard } from './CreateFormWizard.tsx';
import { FormInstancesModal } from './FormInstancesModal.tsx';
import { FormTable } from './FormTable.tsx';
import { SendFormModal } from '../../components/SendFormModal.tsx';
import { ActGate } from '../../components/ActGate.tsx';

/** The Forms tab: the Form Table, '+Create Form', the Form Instances and Send-form popups. */
export function FormsTab() {
  const q = useForms();
  const session = useSession();
  const timeZone = currentWorkspace(session)?.timezone || 'UTC';
  const [creating, setCreating] = useState(false);
  const [sending, setSending] = useState<FormRow | null>(null);
  const [results, setResults] = useState<FormRow | null>(null);
  const onSend = useCallback((r: FormRow) => setSending(r), []);
  const onResults = useCallback((r: FormRow) => setResults(r), []);

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <div>
            <Text fw={600} fz="lg" component="h2" m={0}>
              Forms
            </Text>
            <Text fz="sm" c="dimmed">
              Questions members answer in a Slack form, once or on a schedule.
            </Text>
          </div>
          <ActGate>
            {(viewer) => (
              <Button
                leftSection={<IconPlus size={16} />}
                onClick={() => setCreating(true)}
                disabled={viewer}
              >
                Create Form
              </Button>
            )}
          </ActGate>
        </Group>
        <FormTable
          rows={q.data}
          loading={q.isPending && q.fetchStatus !== 'idle'}
          error={q.error ? errorMessage(q.error) : null}
          onSend={onSend}
          onResults={onResults}
        />
      </Stack>
      {creating ? <CreateFormWizard opened onClose={() => setCreating(false)} timeZone={timeZone} /> : null}
      <SendFormModal opened={sending !== null} form={sending} onClose={() => setSending(null)} />
      <FormInstancesModal form={results} onClose={() => setResults(null)} />
    </Card>
  );
}
