import { useEffect, useState } from 'react';

/**
 * Whether the element's content is wider or taller than the element (it scrolls), kept current as either
 * resizes. A table that scrolls sideways on a phone must be reachable by keyboard (axe:
 * scrollable-region-focusable); one that fits stays out of the tab order.
 */
export function useOverflows(el: HTMLElement | null): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () =>
      setOverflows(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    // No measuring here: reading the sizes now would make the browser lay out the page in the middle of the
    // first render. The observer reports each element once it is laid out, and on every change after.
    return () => observer.disconnect();
  }, [el]);
  return overflows;
}
