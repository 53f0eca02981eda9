import { ActionIcon, Anchor, Badge, Group } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BADGE_COLORS, TAGS_IN_CELL } from '@flywheel/shared/constants';
import type { Tag } from '@flywheel/shared/directory';

export const badgeColor = (i: number) => BADGE_COLORS[i % BADGE_COLORS.length]!;

/**
 * A tag's text: Mantine's light-variant text (shade 9) a quarter darker. Shade 9 alone reads at ~4.6:1 for teal
 * and ~4.0:1 for orange on the badge's tint, under AA's 4.5:1, and less on a hovered or striped row.
 */
const badgeText = (i: number) => `color-mix(in srgb, var(--mantine-color-${badgeColor(i)}-9) 75%, black)`;

/** A badge as tall as its name needs: the label wraps (Mantine's is one line, cut with an ellipsis). */
const WRAP = {
  root: { height: 'auto', minHeight: 'var(--badge-height)', paddingBlock: 1 },
  label: {
    whiteSpace: 'normal',
    overflow: 'visible',
    textOverflow: 'clip',
    overflowWrap: 'anywhere',
    textAlign: 'start',
    lineHeight: 1.3,
  },
} as const;

type TagBadgesProps = {
  tags: Tag[];
  owner: string;
  onRemove(tag: Tag): void;
  /** Show at most this many, then a More link to `moreHref`. */
  limit?: number;
  moreHref?: string;
  disabled?: boolean;
};

/** Tags as badges cycling four colours, each with a remove X. */
export function TagBadges({ tags, owner, onRemove, limit, moreHref, disabled }: TagBadgesProps) {
  const shown = limit === undefined ? tags : tags.slice(0, limit);
  return (
    <Group gap={4} wrap="wrap">
      {shown.map((t, i) => (
        <Badge
          key={t.id}
          color={badgeColor(i)}
          c={badgeText(i)}
          variant="light"
          tt="none"
          // A badge does not shrink to a letter in a narrow cell: it takes at most the cell's width, and a longer
          // name wraps onto another line inside it (whole, never cut to 'M…').
          maw="100%"
          style={{ flexShrink: 0 }}
          styles={WRAP}
          rightSection={
            <ActionIcon
              size={14}
              variant="transparent"
              color={badgeColor(i)}
              c={badgeText(i)}
              aria-label={`Remove tag ${t.name} from ${owner}`}
              disabled={disabled}
              onClick={() => onRemove(t)}
            >
              <IconX size={11} />
            </ActionIcon>
          }
        >
          {t.name}
        </Badge>
      ))}
      {limit !== undefined && tags.length > limit && moreHref ? (
        <Anchor component={Link} to={moreHref} fz="xs">
          More
        </Anchor>
      ) : null}
    </Group>
  );
}

export { TAGS_IN_CELL };
