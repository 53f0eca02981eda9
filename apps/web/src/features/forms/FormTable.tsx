import { useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Text, Tooltip } from '@mantine/core';
import { IconSend, IconTrash } from '@tabler/icons-react';
import type { FormRow } from '@flywheel/shared/forms';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useDeleteForm } from '../../entities/forms/index.ts';

/** What deleting a form ends: its button in Slack, its results here, its recurrence. */
export function formDeleteConsequences(r: FormRow): string[] {
  const responses = `${r.responses} response${r.responses === 1 ? '' : 's'}`;
  return [
    `Its button in Slack stops taking answers, and its ${responses} will no longer be shown here.`,
    ...(r.recurring ? ['It stops recurring: no further sends go out.'] : []),
  ];
}

type FormTableProps = {
  rows: FormRow[] | undefined;
  loading: boolean;
  error: string | null;
  onSend(row: FormRow): void;
  onResults(row: FormRow): void;
};

/** Form Table: Name, Sender, Recurring, Send, Result, Delete; newest first, searchable, paged. */
export function FormTable({ rows, loading, error, onSend, onResults }: FormTableProps) {
  const { mutate: remove, isPending: deleting, variables: deletingId } = useDeleteForm();
  const [asked, setAsked] = useState<FormRow | null>(null);
  const busy = loading || deleting;

  const columns = useMemo<DataColumn<FormRow>[]>(
    () => [
      { id: 'name', header: 'Name', value: (r) => r.form_title, fw: 500, sortable: true },
      { id: 'sender', header: 'Sender', value: (r) => r.sender_label, nowrap: true, searchable: false },
      {
        id: 'recurring',
        header: 'Recurring',
        value: (r) => r.schedule,
        searchable: false,
        cell: (r) =>
          r.recurring ? (
            <Tooltip label={r.schedule} withArrow>
              <Badge variant="light" radius="sm" tt="none">
                {r.frequency === 'Weekly' ? 'Weekly' : 'Every Day'}
              </Badge>
            </Tooltip>
          ) : (
            <Text fz="sm" c="dimmed">
              No
            </Text>
          ),
      },
      {
        id: 'send',
        header: 'Send',
        width: 70,
        cell: (r) => (
          <ActionIcon
            variant="subtle"
            aria-label={`Send ${r.form_title}`}
            disabled={busy}
            onClick={() => onSend(r)}
          >
            <IconSend size={18} />
          </ActionIcon>
        ),
      },
      {
        id: 'result',
        header: 'Result',
        value: (r) => r.responses,
        searchable: false,
        cell: (r) => {
          const text = `${r.responses} response${r.responses === 1 ? '' : 's'}`;
          return (
            <Button
              variant="light"
              size="compact-sm"
              onClick={() => onResults(r)}
              aria-label={`${text} for ${r.form_title}`}
            >
              {text}
            </Button>
          );
        },
      },
      {
        id: 'delete',
        header: 'Delete',
        width: 70,
        cell: (r) => (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete ${r.form_title}`}
            disabled={busy}
            loading={deleting && deletingId === r.master_form_id}
            onClick={() => setAsked(r)}
          >
            <IconTrash size={18} />
          </ActionIcon>
        ),
      },
    ],
    [busy, deleting, deletingId, onResults, onSend],
  );

  const confirmDelete = () => {
    if (!asked) return;
    remove(asked.master_form_id, {
      onSuccess: (res) => {
        notifySuccess(res.message);
        setAsked(null);
      },
      onError: (err) => notifyFailure(errorMessage(err)),
    });
  };

  const sorted = useMemo(
    () => (rows ? [...rows].sort((a, b) => b.master_form_id - a.master_form_id) : undefined),
    [rows],
  );

  return (
    <>
      <DataTable
        label="Form Table"
        columns={columns}
        rows={sorted}
        rowId={(r) => String(r.master_form_id)}
        rowProps={(r) => ({ 'data-form-id': String(r.master_form_id) })}
        loading={loading}
        error={error}
        emptyText="No forms yet: create one to collect answers in Slack"
        search={{ label: 'Search forms', width: 320 }}
        countLabel={(n) => `${n} form${n === 1 ? '' : 's'}`}
        pageSize={10}
        minWidth={720}
        highlightOnHover
        verticalSpacing="sm"
      />
      <ConfirmDeleteModal
        opened={asked !== null}
        title="Delete form?"
        what={asked ? `The form "${asked.form_title}" will be deleted.` : ''}
        consequences={asked ? formDeleteConsequences(asked) : []}
        confirmLabel="Delete form"
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setAsked(null)}
      />
    </>
  );
}
