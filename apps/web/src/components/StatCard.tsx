import { Group, Paper, Skeleton, Text, Tooltip } from '@mantine/core';
import {
  IconArrowDownRight,
  IconArrowRight,
  IconArrowUpRight,
  IconHistory,
  IconSparkles,
} from '@tabler/icons-react';
import type { SummaryCard } from '@flywheel/shared/analytics';
import { formatCount } from '../lib/chart-labels.ts';
import { formatDate } from '../lib/format-date.ts';

/** How a card's change reads: its text, colour, icon and (for the cases without a percent) why. */
export function changeOf(card: SummaryCard): {
  text: string;
  tone: 'up' | 'down' | 'flat' | 'new' | 'incomplete';
  why?: string;
} {
  if (card.comparison === 'incomplete')
    return {
      text: 'history incomplete',
      tone: 'incomplete',
      why: card.history_start
        ? `Flywheel's history of this workspace starts on ${formatDate(card.history_start)}: the period before is not all in it, so no percent is shown.`
        : 'Flywheel holds no history of this workspace yet: there is nothing to compare with.',
    };
  if (card.comparison === 'new')
    return { text: 'new', tone: 'new', why: 'Nothing in the period before: no percent to show.' };
  const pct = `${Math.abs(card.percent).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
  if (card.percent === 0) return { text: pct, tone: 'flat' };
  return card.sign === '+' ? { text: `+${pct}`, tone: 'up' } : { text: `-${pct}`, tone: 'down' };
}

const TONES = {
  up: { color: 'teal.9', Icon: IconArrowUpRight },
  down: { color: 'red.9', Icon: IconArrowDownRight },
  flat: { color: 'gray.7', Icon: IconArrowRight },
  new: { color: 'blue.8', Icon: IconSparkles },
  incomplete: { color: 'gray.7', Icon: IconHistory },
} as const;

/**
 * A summary card: value, name and the change against the period before (green +, red -,
 * grey for no change). Without a fair percent it says 'new' or 'history incomplete', with why in a tooltip.
 */
export function StatCard({ card, caption }: { card: SummaryCard; caption?: string }) {
  const change = changeOf(card);
  const { color, Icon } = TONES[change.tone];
  const badge = (
    <Group
      gap={2}
      c={color}
      wrap="nowrap"
      data-sign={card.sign}
      data-tone={change.tone}
      tabIndex={change.why ? 0 : undefined}
      aria-label={change.why ? `${change.text}: ${change.why}` : undefined}
    >
      <Icon size={14} aria-hidden />
      <Text fz="xs" fw={700} c="inherit" style={{ whiteSpace: 'nowrap' }}>
        {change.text}
      </Text>
    </Group>
  );
  return (
    <Paper withBorder radius="md" p="md" aria-label={card.name} role="group">
      <Text fz={11} tt="uppercase" fw={600} c="dimmed" lts={0.2} truncate="end" title={card.name}>
        {card.name}
      </Text>
      <Text fz={28} fw={700} lh={1.15} mt={6}>
        {formatCount(card.val)}
      </Text>
      {/* The change, and the caption on a line of its own: whole on every card, whatever their width. */}
      <Group gap={6} mt={4}>
        {change.why ? (
          <Tooltip label={change.why} multiline w={260} withArrow>
            {badge}
          </Tooltip>
        ) : (
          badge
        )}
      </Group>
      {caption ? (
        <Text fz="xs" c="dimmed" mt={2}>
          {caption}
        </Text>
      ) : null}
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
