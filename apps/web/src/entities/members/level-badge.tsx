import { Badge, Tooltip } from '@mantine/core';
import { LEVEL_LABELS, LEVEL_RULES, type EngagementLevel } from '@flywheel/shared/levels';

/** Each level's colour: warm for the engaged, amber for those slipping away, grey for the quiet. */
export const LEVEL_COLORS: Record<EngagementLevel, string> = {
  champion: 'violet',
  regular: 'teal',
  casual: 'blue',
  newcomer: 'cyan',
  slipping: 'orange',
  dormant: 'gray',
};

/** A member's engagement level, its rule on hover; a dash before the levels are first computed. */
export function LevelBadge({
  level,
  size = 'sm',
}: {
  level: EngagementLevel | null | undefined;
  size?: 'xs' | 'sm' | 'md';
}) {
  if (!level) return <span aria-label="No level yet">—</span>;
  return (
    <Tooltip label={LEVEL_RULES[level]} withArrow openDelay={300}>
      <Badge color={LEVEL_COLORS[level]} variant="light" size={size} tt="none">
        {LEVEL_LABELS[level]}
      </Badge>
    </Tooltip>
  );
}
