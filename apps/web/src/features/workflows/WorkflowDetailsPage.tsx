import { IconListDetails } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';

/** /dashboard/workflows/details?workflowid&type&actiontype&id&name */
export function WorkflowDetailsPage() {
  const [params] = useSearchParams();
  const name = params.get('name') ?? '';
  const title =
    params.get('type') === 'action'
      ? `Action details for the message "${name}"`
      : `Trigger details for the workflow "${name}"`;
  return (
    <>
      <PageHeader title={name ? title : 'Workflow details'} />
      <PlaceholderCard
        icon={<IconListDetails size={26} />}
        title="History"
        description="When this step ran, for whom, and what was sent."
        upcoming={['Searchable history table', 'Form responses with export']}
      />
    </>
  );
}
