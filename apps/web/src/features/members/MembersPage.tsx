import { IconUsers } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';

export function MembersPage() {
  return (
    <>
      <PageHeader title="Members" description="Everyone in your workspace, with their activity and tags." />
      <PlaceholderCard
        icon={<IconUsers size={26} />}
        title="Members Data"
        description="Find, filter and tag members, then message them in bulk."
        upcoming={[
          'Members table with activity counts and tags',
          'Join, activity and channel filters',
          'Send Message, Add Tag and CSV export',
        ]}
      />
    </>
  );
}
