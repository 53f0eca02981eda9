import { lazy, Suspense } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageSkeleton } from '../../components/PageSkeleton.tsx';

/** The charts library arrives with the dashboard chunk, after the header is on screen. */
const AnalyticsDashboard = lazy(() => import('./AnalyticsDashboard.tsx'));

/** Analytics, normal mode (spec section 2). Bucket creation mode is a later release. */
export function AnalyticsPage() {
  return (
    <>
      <PageHeader title="Analytics" description="Who does what, where, and how it changes over time." />
      <Suspense fallback={<PageSkeleton />}>
        <AnalyticsDashboard />
      </Suspense>
    </>
  );
}
