import { useMemo, useState } from 'react';
import { Anchor, Badge, Button, Card, Group } from '@mantine/core';
import { IconArrowLeft, IconDownload, IconExternalLink } from '@tabler/icons-react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { WORKFLOW_TEXTS, type ActionHistoryRow, type TriggerHistoryRow } from '@flywheel/shared/workflows';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { downloadFormCsv, formInstancePath } from '../../entities/forms/index.ts';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { useActionHistory, useTriggerHistory } from './api/history.ts';

const PAGE_SIZE = 10;
const idOf = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : null);
const at = (iso: string) => Date.parse(iso) || 0;
/** The server knows no such workflow or step in this workspace. */
const unknown = (err: unknown) => isApiError(err) && (err.status === 404 || err.status === 400);

const STATUS_COLOR: Record<ActionHistoryRow['status'], string> = {
  sent: 'teal.9',
  pending: 'blue.9',
  failed: 'red.9',
  cancelled: 'gray.7',
};
const STATUS_LABEL: Record<ActionHistoryRow['status'], string> = {
  sent: 'Sent',
  pending: 'Pending',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const triggerColumns: DataColumn<TriggerHistoryRow>[] = [
  {
    id: 'time',
    header: 'Trigger Time',
    value: (r) => at(r.trigger_time),
    cell: (r) => formatDateTime(r.trigger_time),
    sortable: true,
    searchable: false,
    nowrap: true,
  },
  { id: 'for', header: 'Triggered For', value: (r) => r.triggered_for, sortable: true },
];

function TriggerHistoryTable({ workflowId }: { workflowId: number | null }) {
  const q = useTriggerHistory(workflowId);
  if (unknown(q.error)) return <Navigate to="/404" replace />;
  return (
    <DataTable
      label="Trigger details"
      columns={triggerColumns}
      rows={q.data?.rows}
      rowId={(r) => String(r.id)}
      loading={q.isPending && workflowId !== null}
      error={q.isError ? errorMessage(q.error) : null}
      emptyText={WORKFLOW_TEXTS.noData}
      search={{ label: 'Search', placeholder: 'Search' }}
      defaultSort={{ id: 'time', desc: true }}
      pageSize={PAGE_SIZE}
      striped
    />
  );
}

function ActionHistoryTable(props: {
  workflowId: number | null;
  taskId: number | null;
  form: boolean;
  title: string;
}) {
  const q = useActionHistory(props.workflowId, props.taskId);
  const { teamId } = useCurrentTeam();
  const [exporting, setExporting] = useState<number | null>(null);

  const columns = useMemo<DataColumn<ActionHistoryRow>[]>(() => {
    const base: DataColumn<ActionHistoryRow>[] = [
      {
        id: 'sent',
        header: 'Sent At',
        value: (r) => at(r.status === 'pending' ? r.due_at : r.sent_at),
        cell: (r) => formatDateTime(r.status === 'pending' ? r.due_at : r.sent_at),
        sortable: true,
        searchable: false,
        nowrap: true,
      },
      { id: 'for', header: 'Triggered For', value: (r) => r.triggered_for, sortable: true },
      { id: 'to', header: 'Sent To', value: (r) => r.sent_to, sortable: true },
      {
        id: 'status',
        header: 'Status',
        value: (r) => STATUS_LABEL[r.status],
        sortable: true,
        cell: (r) => (
          <Badge
            variant="outline"
            radius="sm"
            tt="none"
            color={STATUS_COLOR[r.status]}
            title={r.error ?? undefined}
          >
            {STATUS_LABEL[r.status]}
          </Badge>
        ),
      },
    ];
    if (!props.form) return base;
    return [
      ...base,
      {
        id: 'actions',
        header: 'Actions',
        cell: (r) => {
          const ready = r.form_id !== null && r.form_instance_id !== null;
          const label = formatDateTime(r.sent_at);
          return (
            <Group gap="xs" wrap="nowrap">
              {ready ? (
                <Button
                  component="a"
                  href={formInstancePath(r.form_id!, r.form_instance_id!, label, props.title)}
                  target="_blank"
                  rel="noopener"
                  size="compact-sm"
                  variant="light"
                  rightSection={<IconExternalLink size={14} />}
                  aria-label={`View Details of ${r.triggered_for}, ${label}`}
                >
                  View Details
                </Button>
              ) : (
                // Not sent yet: no instance to open (a real disabled button, not a dead link).
                <Button
                  size="compact-sm"
                  variant="light"
                  disabled
                  aria-label={`View Details of ${r.triggered_for}, ${label}`}
                >
                  View Details
                </Button>
              )}
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconDownload size={14} />}
                disabled={!ready}
                loading={exporting === r.id}
                aria-label={`Export Details of ${r.triggered_for}, ${label}`}
                onClick={async () => {
                  setExporting(r.id);
                  // An export failure is only logged.
                  await downloadFormCsv(teamId, r.form_id!, r.form_instance_id!).catch((err) =>
                    console.error('Form export failed', err),
                  );
                  setExporting(null);
                }}
              >
                Export Details
              </Button>
            </Group>
          );
        },
      },
    ];
  }, [props.form, props.title, teamId, exporting]);

  if (unknown(q.error)) return <Navigate to="/404" replace />;
  return (
    <DataTable
      label="Action details"
      columns={columns}
      rows={q.data?.rows}
      rowId={(r) => String(r.id)}
      loading={q.isPending && props.taskId !== null}
      error={q.isError ? errorMessage(q.error) : null}
      emptyText={WORKFLOW_TEXTS.noData}
      search={{ label: 'Search', placeholder: 'Search' }}
      defaultSort={{ id: 'sent', desc: true }}
      pageSize={PAGE_SIZE}
      minWidth={props.form ? 820 : 600}
      striped
    />
  );
}

/**
 * /dashboard/workflows/details?workflowid&type&actiontype&id&name; /404 without a
 * workflow id or type, or when the workflow or step is not in this workspace.
 */
export function WorkflowDetailsPage() {
  const [params] = useSearchParams();
  const name = params.get('name') ?? '';
  const workflowId = idOf(params.get('workflowid'));
  const action = params.get('type') === 'action';
  const form = params.get('actiontype') === 'form';
  const type = params.get('type');
  const taskId = idOf(params.get('id'));
  // No workflow, an unknown type or a step without its id: the not-found page, as for an id that does not exist.
  if (workflowId === null || (type !== 'trigger' && type !== 'action') || (action && taskId === null))
    return <Navigate to="/404" replace />;
  const title = action
    ? `Action details for the message "${name}"`
    : `Trigger details for the workflow "${name}"`;
  return (
    <>
      <Anchor component={Link} to="/dashboard/workflows" fz="sm" mb="sm" display="inline-block">
        <Group gap={4}>
          <IconArrowLeft size={16} /> Workflows
        </Group>
      </Anchor>
      <PageHeader
        title={title}
        description={
          action
            ? 'Each member this step was sent to (or is waiting for), newest first.'
            : 'Each time the trigger fired, newest first.'
        }
      />
      <Card withBorder radius="md" padding="lg">
        {action ? (
          <ActionHistoryTable workflowId={workflowId} taskId={taskId} form={form} title={name} />
        ) : (
          <TriggerHistoryTable workflowId={workflowId} />
        )}
      </Card>
    </>
  );
}
