import { lazy, Suspense, useState } from 'react';
import { SegmentedControl } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageSkeleton } from '../../components/PageSkeleton.tsx';
import { BucketCreation } from './components/BucketCreation.tsx';

/** The charts library arrives with the dashboard chunk, after the header is on screen. */
const AnalyticsDashboard = lazy(() => import('./AnalyticsDashboard.tsx'));

type Mode = 'normal' | 'buckets';

/** Analytics (spec section 2): normal mode (the dashboard and the bucket table) or bucket creation mode. */
export function AnalyticsPage() {
  const [mode, setMode] = useState<Mode>('normal');
  return (
    <>
      <PageHeader
        title="Analytics"
        description="Who does what, where, and how it changes over time."
        actions={
          <SegmentedControl
            aria-label="Analytics mode"
            value={mode}
            onChange={(v) => setMode(v as Mode)}
            data={[
              { value: 'normal', label: 'Analytics' },
              { value: 'buckets', label: 'Bucket creation' },
            ]}
          />
        }
      />
      {mode === 'normal' ? (
        <Suspense fallback={<PageSkeleton />}>
          <AnalyticsDashboard />
        </Suspense>
      ) : (
        <BucketCreation />
      )}
    </>
  );
}
