import { Button } from '@mantine/core';
import { IconPlus, IconRoute } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';

export function WorkflowsPage() {
  return (
    <>
      <PageHeader
        title="Workflows"
        description="A trigger followed by messages or forms, sent on your schedule."
        actions={
          <Button
            component={Link}
            to="/dashboard/workflows/create-new-workflow"
            leftSection={<IconPlus size={16} />}
          >
            Create New WorkFlow
          </Button>
        }
      />
      <PlaceholderCard
        icon={<IconRoute size={26} />}
        title="Automated journeys"
        description="Automate follow-ups: welcome new members, nudge quiet ones, check in on a date."
        upcoming={[
          'Workflow list with status and sender',
          'Start, stop and delete',
          'Trigger and action history',
        ]}
      />
    </>
  );
}
