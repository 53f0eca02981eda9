import { IconHome } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';
import { currentWorkspace, useSession } from '../../lib/session.ts';

export function HomePage() {
  const session = useSession();
  const workspace = currentWorkspace(session);
  return (
    <>
      <PageHeader
        title="Home"
        description={
          workspace
            ? `Highlights of ${workspace.workspace_name} at a glance.`
            : 'Highlights of your workspace at a glance.'
        }
      />
      <PlaceholderCard
        icon={<IconHome size={26} />}
        title="Workspace highlights"
        description="Your landing page: the pulse of your community over the last day and the weeks before it."
        upcoming={[
          'Summary cards for the last 24 hours',
          'Workspace Highlights and Activity charts per channel',
          'Customise Bot: name and image',
          'Content Generation split and Top Performing Members',
        ]}
      />
    </>
  );
}
