import { IconForms } from '@tabler/icons-react';
import { useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';

/** /dashboard/actions/form-instances/:mid/:fid/:label?name=: responses of one form instance. */
export function FormInstancePage() {
  const { label } = useParams();
  const [params] = useSearchParams();
  const name = params.get('name') || 'Form responses';
  return (
    <>
      <PageHeader title={name} description={label ? `Current Instance: ${label}` : undefined} />
      <PlaceholderCard
        icon={<IconForms size={26} />}
        title="Form responses"
        description="Every answer to this form instance, one row per member and one column per question."
        upcoming={['Searchable, sortable responses table', 'Switch between instances']}
      />
    </>
  );
}
