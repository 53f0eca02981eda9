import { useState } from 'react';
import { Group, Select, SimpleGrid, Text, Title } from '@mantine/core';
import { TIME_FILTER_DAYS } from '@flywheel/shared/constants';
import { StatCard, StatCardSkeleton } from '../../../components/StatCard.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { DEFAULT_COMPARE_DAYS, useCompare } from '../api/get-analytics-compare.ts';

/** Stat cards: value, name and signed change against the period before (green +, red -). */
export function StatCards() {
  const [days, setDays] = useState(DEFAULT_COMPARE_DAYS);
  const q = useCompare(days);
  useErrorToast(q);
  return (
    <section aria-label="Compare">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="md" fw={600}>
          Overview
        </Title>
        <Select
          aria-label="Compare period"
          data={TIME_FILTER_DAYS.map((d) => ({ value: String(d), label: `Last ${d} days` }))}
          value={String(days)}
          onChange={(v) => v && setDays(Number(v))}
          allowDeselect={false}
          w={160}
        />
      </Group>
      {q.data === undefined ? (
        q.error ? (
          <Text c="dimmed" fz="sm" role="alert">
            {errorMessage(q.error)}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            {[0, 1, 2, 3].map((i) => (
              <StatCardSkeleton key={i} />
            ))}
          </SimpleGrid>
        )
      ) : q.data.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No Data Found
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4, xl: Math.min(7, q.data.length) }}>
          {q.data.map((c) => (
            <StatCard key={c.name} card={c} caption={`vs prior ${days}d`} />
          ))}
        </SimpleGrid>
      )}
    </section>
  );
}
