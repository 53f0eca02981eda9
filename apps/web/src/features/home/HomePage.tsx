import { lazy, Suspense } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageSkeleton } from '../../components/PageSkeleton.tsx';
import { currentWorkspace, useSession } from '../../lib/session.ts';

/** The charts library arrives with the dashboard chunk, after the header is on screen. */
const HomeDashboard = lazy(() => import('./HomeDashboard.tsx'));

/** Home (spec section 2): the pulse of the workspace. */
export function HomePage() {
  const workspace = currentWorkspace(useSession());
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
      <Suspense fallback={<PageSkeleton />}>
        <HomeDashboard />
      </Suspense>
    </>
  );
}
