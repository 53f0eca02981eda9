import { Group, Paper, Skeleton, Text } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import type { SummaryCard } from '@flywheel/shared/analytics';
import { formatCount } from '../lib/chart-labels.ts';

/** A summary card (spec section 3): value, name and the change with its sign (green +, red -). */
export function StatCard({ card, caption }: { card: SummaryCard; caption?: string }) {
  const up = card.sign === '+';
  const Icon = up ? IconArrowUpRight : IconArrowDownRight;
  return (
    <Paper withBorder radius="md" p="md" aria-label={card.name} role="group">
      <Text fz={11} tt="uppercase" fw={600} c="dimmed" lts={0.2} truncate="end" title={card.name}>
        {card.name}
      </Text>
      <Text fz={28} fw={700} lh={1.15} mt={6}>
        {formatCount(card.val)}
      </Text>
      <Group gap={6} mt={4} wrap="nowrap">
        <Group gap={2} c={up ? 'teal.9' : 'red.9'} wrap="nowrap" data-sign={card.sign}>
          <Icon size={14} />
          <Text fz="xs" fw={700} c="inherit">
            {card.sign}
            {Math.abs(card.percent).toLocaleString('en-US', { maximumFractionDigits: 1 })}%
          </Text>
        </Group>
        {caption ? (
          <Text fz="xs" c="dimmed" truncate="end">
            {caption}
          </Text>
        ) : null}
      </Group>
    </Paper>
  );
}

export function StatCardSkeleton() {
  return (
    <Paper withBorder radius="md" p="md" aria-hidden>
      <Skeleton h={10} w="50%" />
      <Skeleton h={26} w="40%" mt={12} />
      <Skeleton h={10} w="70%" mt={10} />
    </Paper>
  );
}
