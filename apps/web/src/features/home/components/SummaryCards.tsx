import { SimpleGrid, Text } from '@mantine/core';
import { StatCard, StatCardSkeleton } from '../../../components/StatCard.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useSummaryCards } from '../api/get-cards-data.ts';
import { HOME_FAILURE } from './HomeCharts.tsx';

/** Summary cards of the last 24 hours, each with its change against the 24 hours before. */
export function SummaryCards() {
  const q = useSummaryCards();
  useErrorToast(q, HOME_FAILURE);
  if (q.data === undefined) {
    if (q.error)
      return (
        <Text c="dimmed" fz="sm" role="alert">
          Summary cards could not be loaded.
        </Text>
      );
    return (
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} role="status" aria-label="Loading summary cards">
        {[0, 1, 2, 3].map((i) => (
          <StatCardSkeleton key={i} />
        ))}
      </SimpleGrid>
    );
  }
  if (q.data.length === 0) return null;
  return (
    <SimpleGrid
      cols={{ base: 1, xs: 2, md: 3, lg: Math.min(5, q.data.length) }}
      role="group"
      aria-label="Summary cards"
    >
      {q.data.map((c) => (
        <StatCard key={c.name} card={c} caption="Last 24 hours" />
      ))}
    </SimpleGrid>
  );
}
