import { Badge } from '@mantine/core';
import type { Poll } from '@flywheel/shared/polls';

/** An instant as the workspace reads it: 'Mon, 23 Nov 2026, 09:00'. */
export function formatPollTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** Active while open, else Expired; a scheduled poll not posted yet says so. */
export const STATUS_LABEL: Record<Poll['state'], string> = {
  active: 'Active',
  expired: 'Expired',
  scheduled: 'Scheduled',
};
const STATUS_COLOR: Record<Poll['state'], string> = { active: 'teal', expired: 'gray', scheduled: 'blue' };

/**
 * The Status badge, outlined in a dark shade. Its text is darker still: teal 9 alone is about 4.5:1 on a hovered
 * row's grey, on the line (axe failed the Polls tab once in the end-to-end suite on a busy machine).
 */
export function PollStatusBadge({ state }: { state: Poll['state'] }) {
  return (
    <Badge
      color={`${STATUS_COLOR[state]}.9`}
      c={`color-mix(in srgb, var(--mantine-color-${STATUS_COLOR[state]}-9) 75%, black)`}
      variant="outline"
    >
      {STATUS_LABEL[state]}
    </Badge>
  );
}
