import type { ReactElement } from 'react';
import { Tooltip, VisuallyHidden } from '@mantine/core';
import { useCanAct } from '../lib/role.ts';

/**
 * An acting entry point (send, create): for a role that cannot act, the child is rendered disabled inside a
 * tooltip that says why (a disabled button takes no pointer events, so the tooltip sits on a focusable wrapper;
 * the reason is also there as text for screen readers).
 */
export function ActGate({ children }: { children: (disabled: boolean) => ReactElement }) {
  const { canAct, reason } = useCanAct();
  if (canAct) return children(false);
  return (
    <Tooltip label={reason} withArrow multiline w={260}>
      <span style={{ display: 'inline-block' }} tabIndex={0}>
        {children(true)}
        <VisuallyHidden>{reason}</VisuallyHidden>
      </span>
    </Tooltip>
  );
}
