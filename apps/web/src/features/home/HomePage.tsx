import { Suspense } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageSkeleton } from '../../components/PageSkeleton.tsx';
import { currentWorkspace, useSession } from '../../lib/session.ts';
import { preloadable } from '../../lib/preloadable.tsx';

/** The charts library arrives in a chunk of its own: on a page change the header shows first (preloaded on a cold load). */
export const HomeDashboard = preloadable(() => import('./HomeDashboard.tsx').then((m) => m.default));

/** Home: the pulse of the workspace. */
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
