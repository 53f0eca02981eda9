import { Suspense, useState } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageSkeleton } from '../../components/PageSkeleton.tsx';
import { BucketCreation } from './components/BucketCreation.tsx';
import { preloadable } from '../../lib/preloadable.tsx';
import { Segmented } from '../../components/segmented/Segmented.tsx';

/** The charts library arrives in a chunk of its own: on a page change the header shows first (preloaded on a cold load). */
export const AnalyticsDashboard = preloadable(() =>
  import('./AnalyticsDashboard.tsx').then((m) => m.default),
);

type Mode = 'normal' | 'buckets';

/** Analytics: normal mode (the dashboard and the bucket table) or bucket creation mode. */
export function AnalyticsPage() {
  const [mode, setMode] = useState<Mode>('normal');
  return (
    <>
      <PageHeader
        title="Analytics"
        description="Who does what, where, and how it changes over time."
        actions={
          <Segmented
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
