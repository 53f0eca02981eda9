import { Anchor, Group } from '@mantine/core';
import { IconArrowLeft, IconRoute } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';

export function CreateWorkflowPage() {
  return (
    <>
      <Anchor component={Link} to="/dashboard/workflows" fz="sm" mb="sm" display="inline-block">
        <Group gap={4}>
          <IconArrowLeft size={16} /> Workflows
        </Group>
      </Anchor>
      <PageHeader title="Create Your WorkFlow" />
      <PlaceholderCard
        icon={<IconRoute size={26} />}
        title="Workflow builder"
        description="Start with a trigger, then chain delays, messages and forms."
        upcoming={[
          'Initialize the workflow with a trigger',
          'Set delays between steps',
          'Message and form actions',
        ]}
      />
    </>
  );
}
