import { IconChartBar } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';

export function AnalyticsPage() {
  return (
    <>
      <PageHeader title="Analytics" description="Who does what, where, and how it changes over time." />
      <PlaceholderCard
        icon={<IconChartBar size={26} />}
        title="Engagement analytics"
        description="Compare periods, follow activity by channel and build member buckets from what people do."
        upcoming={[
          'Stat cards with change against the previous period',
          'Activity, members change and activity trend charts',
          'Word cloud, members and channels activity tables',
          'Buckets: saved member segments with CSV export',
        ]}
      />
    </>
  );
}
