import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { LazyModal } from '../../components/LazyModal.tsx';
import { IconDownload, IconExternalLink } from '@tabler/icons-react';
import type { FormInstance, FormRow } from '@flywheel/shared/forms';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { downloadFormCsv, formInstancePath, useFormInstances } from '../../entities/forms/index.ts';

/** The instance data page of one instance (opened in a new tab from Select). */
export const instancePath = (form: { master_form_id: number; form_title: string }, i: FormInstance) =>
  formInstancePath(form.master_form_id, i.form_id, i.label, form.form_title);

/** Form Instances popup: each send with its date/time and response count, Select and Export. */
export function FormInstancesModal({ form, onClose }: { form: FormRow | null; onClose(): void }) {
  const { teamId } = useCurrentTeam();
  const q = useFormInstances(form?.master_form_id ?? null);
  const [exporting, setExporting] = useState<number | null>(null);

  const columns: DataColumn<FormInstance>[] = [
    { id: 'time', header: 'Date/Time', value: (i) => i.label, nowrap: true },
    { id: 'responses', header: 'Responses', value: (i) => i.responses, align: 'right' },
    { id: 'recipients', header: 'Sent to', value: (i) => i.recipients, align: 'right' },
    {
      id: 'select',
      header: 'Select',
      cell: (i) => (
        <Button
          component="a"
          href={form ? instancePath(form, i) : '#'}
          target="_blank"
          rel="noopener"
          variant="light"
          size="compact-sm"
          rightSection={<IconExternalLink size={14} />}
          aria-label={`Select ${i.label}`}
        >
          Select
        </Button>
      ),
    },
    {
      id: 'export',
      header: 'Export',
      cell: (i) => (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconDownload size={14} />}
          loading={exporting === i.form_id}
          aria-label={`Export ${i.label}`}
          onClick={async () => {
            if (!form) return;
            setExporting(i.form_id);
            // A failed export is only logged.
            await downloadFormCsv(teamId, form.master_form_id, i.form_id).catch((err) =>
              console.warn('form export failed', err),
            );
            setExporting(null);
          }}
        >
          Export
        </Button>
      ),
    },
  ];

  return (
    <LazyModal
      opened={form !== null}
      onClose={onClose}
      title={form ? `${form.form_title}: instances` : ''}
      size="lg"
    >
      <Group mb="sm">
        <Text fz="sm" c="dimmed">
          {form?.schedule}
        </Text>
      </Group>
      <DataTable
        label="Form Instances"
        columns={columns}
        rows={q.data}
        rowId={(i) => String(i.form_id)}
        loading={q.isPending && q.fetchStatus !== 'idle'}
        error={q.error ? errorMessage(q.error) : null}
        emptyText="Not sent yet"
        pageSize={5}
        verticalSpacing="xs"
      />
    </LazyModal>
  );
}
