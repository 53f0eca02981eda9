import { useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Text, Tooltip } from '@mantine/core';
import { LazyModal } from '../../components/LazyModal.tsx';
import { IconEye, IconPlayerPlay, IconPlayerStop, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { WORKFLOW_TEXTS, type WorkflowRow } from '@flywheel/shared/workflows';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useErrorToast } from '../../lib/use-error-toast.ts';
import { useDeleteWorkflow, usePauseWorkflow, useWorkflows } from './api/workflows.ts';
import { WorkflowDetailsModal } from './components/WorkflowDetailsModal.tsx';
import { ActGate } from '../../components/ActGate.tsx';

const PAGE_SIZE = 10;

/**
 * /dashboard/workflows: 'Create New WorkFlow', the table (Name, Sender, Type, status,
 * Actions: details, Activate / Stop, delete), newest first, paged.
 */
export function WorkflowsPage() {
  const list = useWorkflows();
  useErrorToast(list);
  const pause = usePauseWorkflow();
  const remove = useDeleteWorkflow();
  const [shown, setShown] = useState<WorkflowRow | null>(null);
  const [deleting, setDeleting] = useState<WorkflowRow | null>(null);

  // Workflows by id descending (the hidden id column's default sort).
  const rows = useMemo(
    () => (list.data ? [...list.data].sort((a, b) => b.workflow_id - a.workflow_id) : undefined),
    [list.data],
  );

  const toggle = (w: WorkflowRow) =>
    pause.mutate(
      { workflowId: w.workflow_id, status: !w.status },
      {
        onSuccess: (res) => notifySuccess(res.data.status ? WORKFLOW_TEXTS.started : WORKFLOW_TEXTS.stopped),
        onError: (err) => notifyFailure(errorMessage(err), 'Error'),
      },
    );

  const columns = useMemo<DataColumn<WorkflowRow>[]>(
    () => [
      { id: 'name', header: 'Name', value: (w) => w.workflow_name, fw: 500 },
      { id: 'sender', header: 'Sender', value: (w) => w.sender_label, nowrap: true },
      { id: 'type', header: 'Type', value: (w) => w.type_label, nowrap: true },
      {
        id: 'status',
        header: 'Status',
        value: (w) => (w.status ? 'Active' : 'Inactive'),
        cell: (w) => (
          <Badge variant="outline" color={w.status ? 'teal.9' : 'gray.7'} radius="sm" tt="none">
            {w.status ? 'Active' : 'Inactive'}
          </Badge>
        ),
      },
      {
        id: 'actions',
        header: 'Actions',
        width: 220,
        cell: (w) => {
          const busy = pause.isPending && pause.variables?.workflowId === w.workflow_id;
          const timeStop = w.status && w.trigger_type === 'time';
          const toggleButton = (
            <Button
              size="compact-sm"
              variant="light"
              color={w.status ? 'red' : 'teal'}
              leftSection={w.status ? <IconPlayerStop size={14} /> : <IconPlayerPlay size={14} />}
              disabled={timeStop}
              loading={busy}
              aria-label={`${w.status ? 'Stop' : 'Activate'} ${w.workflow_name}`}
              onClick={() => toggle(w)}
            >
              {w.status ? 'Stop' : 'Activate'}
            </Button>
          );
          return (
            <Group gap="xs" wrap="nowrap">
              <Tooltip label="View details" withArrow>
                <ActionIcon
                  variant="subtle"
                  aria-label={`View details of ${w.workflow_name}`}
                  onClick={() => setShown(w)}
                >
                  <IconEye size={18} />
                </ActionIcon>
              </Tooltip>
              {timeStop ? (
                <Tooltip label={WORKFLOW_TEXTS.cannotStopTime} withArrow>
                  {/* A disabled button gets no pointer events: the tooltip sits on its wrapper. */}
                  <span data-testid={`stop-wrapper-${w.workflow_id}`}>{toggleButton}</span>
                </Tooltip>
              ) : (
                toggleButton
              )}
              <Tooltip label="Delete" withArrow>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete ${w.workflow_name}`}
                  onClick={() => setDeleting(w)}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          );
        },
      },
    ],
    [pause.isPending, pause.variables],
  );

  const confirmDelete = () => {
    const w = deleting;
    if (!w) return;
    remove.mutate(w.workflow_id, {
      onSuccess: () => {
        notifySuccess(WORKFLOW_TEXTS.deleted);
        setDeleting(null);
      },
      onError: (err) => notifyFailure(errorMessage(err)),
    });
  };

  return (
    <>
      <PageHeader
        title={WORKFLOW_TEXTS.title}
        description="A trigger followed by messages or forms, sent on your schedule."
        actions={
          <ActGate>
            {(viewer) =>
              viewer ? (
                <Button leftSection={<IconPlus size={16} />} disabled>
                  {WORKFLOW_TEXTS.createButton}
                </Button>
              ) : (
                <Button
                  component={Link}
                  to="/dashboard/workflows/create-new-workflow"
                  leftSection={<IconPlus size={16} />}
                >
                  {WORKFLOW_TEXTS.createButton}
                </Button>
              )
            }
          </ActGate>
        }
      />
      <Card withBorder radius="md" padding="lg">
        <DataTable
          label="Workflows"
          columns={columns}
          rows={rows}
          rowId={(w) => String(w.workflow_id)}
          rowProps={(w) => ({ 'data-workflow-id': String(w.workflow_id) })}
          loading={list.isPending}
          refreshing={list.isFetching || remove.isPending}
          error={list.isError ? errorMessage(list.error) : null}
          emptyText={WORKFLOW_TEXTS.empty}
          pageSize={PAGE_SIZE}
          minWidth={720}
        />
      </Card>
      <WorkflowDetailsModal workflow={shown} onClose={() => setShown(null)} />
      <LazyModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete workflow"
        size="sm"
      >
        <Text fz="sm">
          {`Delete "${deleting?.workflow_name ?? ''}"? Its steps that are still waiting will not be sent.`}
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setDeleting(null)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={confirmDelete} loading={remove.isPending}>
            Delete
          </Button>
        </Group>
      </LazyModal>
    </>
  );
}
