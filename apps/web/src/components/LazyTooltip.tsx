import { cloneElement, useState, type FocusEvent, type PointerEvent, type ReactElement } from 'react';
import { Tooltip, type TooltipProps } from '@mantine/core';

type Target = ReactElement<{
  onPointerEnter?: (e: PointerEvent<HTMLElement>) => void;
  onFocus?: (e: FocusEvent<HTMLElement>) => void;
}>;

/**
 * A Mantine Tooltip for a target among many (the words of a word cloud): the Tooltip, with its portal,
 * transition and positioning, joins the page when its target is first pointed at (or focused, when the tooltip
 * opens on focus), opened, and stays. Until then the target is rendered alone.
 * Only for targets that are not clicked: joining the Tooltip puts a new element in the target's place.
 */
export function LazyTooltip({ children, ...props }: Omit<TooltipProps, 'children'> & { children: Target }) {
  const [live, setLive] = useState(false);
  if (live) {
    return (
      <Tooltip defaultOpened {...props}>
        {children}
      </Tooltip>
    );
  }
  const own = children.props;
  return cloneElement(children, {
    onPointerEnter: (e: PointerEvent<HTMLElement>) => {
      own.onPointerEnter?.(e);
      if (e.pointerType !== 'touch' || props.events?.touch) setLive(true);
    },
    onFocus: (e: FocusEvent<HTMLElement>) => {
      own.onFocus?.(e);
      if (props.events?.focus) setLive(true);
    },
  });
}
