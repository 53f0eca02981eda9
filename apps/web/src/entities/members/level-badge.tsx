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
  if (!level) return <span title="Not computed yet">—</span>;
  return (
    <Tooltip label={LEVEL_RULES[level]} withArrow openDelay={300}>
      {/* The level's colour is the tint; the text is near-black, which reads on every tint at badge size (teal's
          own darkest shade on its tint is 4.3:1, under axe's 4.5:1). */}
      <Badge color={LEVEL_COLORS[level]} c="gray.9" variant="light" size={size} tt="none">
        {LEVEL_LABELS[level]}
      </Badge>
    </Tooltip>
  );
}
