import { Group, Loader, RingProgress, Text, Tooltip } from '@mantine/core';
import type { WorkspaceStatus } from '@flywheel/shared/directory';
import { importPercent } from './ImportProgressCard.tsx';

/** A small top-bar ring while the history import runs (the full card is on Home). */
export function ImportIndicator({ status }: { status: WorkspaceStatus | undefined }) {
  const backfill = status?.backfill;
  if (!backfill || backfill.status !== 'running' || status?.status === 'disconnected') return null;
  const percent = importPercent(backfill.percent);
  if (percent === null)
    return (
      <Tooltip label="Importing history…" withArrow>
        <Group gap={4} wrap="nowrap" aria-label="History import started" role="status">
          <Loader size={20} />
        </Group>
      </Tooltip>
    );
  return (
    <Tooltip label={`Importing history: ${percent}%`} withArrow>
      <Group gap={4} wrap="nowrap" aria-label={`History import ${percent}%`} role="status">
        <RingProgress size={30} thickness={3} roundCaps sections={[{ value: percent, color: 'brand' }]} />
        <Text fz="xs" fw={600} c="dimmed" visibleFrom="md">
          {percent}%
        </Text>
      </Group>
    </Tooltip>
  );
}
