import { ActionIcon, Card, Group, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { IconBolt, IconForms, IconInfoCircle, IconMessage } from '@tabler/icons-react';
import { Link } from 'react-router';
import { WORKFLOW_TEXTS, type WorkflowRow, type WorkflowTaskRow } from '@flywheel/shared/workflows';

/** /dashboard/workflows/details for the trigger, or for one task. */
export function detailsPath(w: WorkflowRow, task?: WorkflowTaskRow): string {
  const q = new URLSearchParams({ workflowid: String(w.workflow_id) });
  if (!task) {
    q.set('type', 'trigger');
    q.set('name', w.workflow_name);
  } else {
    q.set('type', 'action');
    q.set('actiontype', task.details.type);
    q.set('id', String(task.task_id));
    q.set('name', (task.details.type === 'form' ? task.details.formTitle : task.details.msgTitle) ?? '');
  }
  return `/dashboard/workflows/details?${q.toString()}`;
}

function StepCard(props: {
  icon: React.ReactNode;
  label: string;
  text: string;
  to: string;
  linkLabel: string;
}) {
  return (
    <Card withBorder radius="md" padding="sm">
      <Group wrap="nowrap" align="flex-start" gap="sm">
        {props.icon}
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Text fz="xs" c="gray.7" tt="uppercase" fw={600}>
            {props.label}
          </Text>
          <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {props.text}
          </Text>
        </Stack>
        <Tooltip label="See history" withArrow>
          <ActionIcon
            component={Link}
            to={props.to}
            variant="subtle"
            aria-label={props.linkLabel}
            color="brand"
          >
            <IconInfoCircle size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Card>
  );
}

/** 'Workflow Details': the name, the trigger card and one card per task, each linking to its history. */
export function WorkflowDetailsModal({
  workflow,
  onClose,
}: {
  workflow: WorkflowRow | null;
  onClose(): void;
}) {
  return (
    <LazyModal opened={workflow !== null} onClose={onClose} title={WORKFLOW_TEXTS.detailsTitle} size="lg">
      {workflow ? (
        <Stack gap="sm">
          <Text fw={600} fz="lg" style={{ overflowWrap: 'anywhere' }}>
            {workflow.workflow_name}
          </Text>
          <StepCard
            icon={
              <ThemeIcon variant="light" radius="xl" size="lg">
                <IconBolt size={18} />
              </ThemeIcon>
            }
            label={`Trigger · ${workflow.type_label}`}
            text={workflow.trigger_summary}
            to={detailsPath(workflow)}
            linkLabel="Trigger details"
          />
          {workflow.tasks.map((t, i) => (
            <StepCard
              key={t.task_id}
              icon={
                <ThemeIcon
                  variant="light"
                  radius="xl"
                  size="lg"
                  color={t.details.type === 'form' ? 'grape' : 'teal'}
                >
                  {t.details.type === 'form' ? <IconForms size={18} /> : <IconMessage size={18} />}
                </ThemeIcon>
              }
              label={`Step ${i + 1} · ${t.details.type === 'form' ? 'Form' : 'Message'}`}
              text={t.summary}
              to={detailsPath(workflow, t)}
              linkLabel={`Details of step ${i + 1}`}
            />
          ))}
        </Stack>
      ) : null}
    </LazyModal>
  );
}
