import { useCallback, useEffect, useRef } from 'react';

/**
 * A ref for a scrolling box (a table's viewport): while its content is wider or taller than the box (it scrolls,
 * as a wide table does on a phone), the box is a named group in the tab order, so the arrow keys can scroll it
 * (axe: scrollable-region-focusable); one that fits stays out of the tab order.
 * The attributes are set on the element as its ResizeObserver reports, not through React state: a state change
 * here rendered the whole table again after its first render (once for the element, once for its size).
 */
export function useScrollFocus(label: string): (el: HTMLElement | null) => void {
  const labelRef = useRef(label);
  const stop = useRef<(() => void) | null>(null);
  const node = useRef<HTMLElement | null>(null);
  const apply = useCallback((el: HTMLElement) => {
    const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    if (scrolls) {
      el.tabIndex = 0;
      el.setAttribute('role', 'group');
      el.setAttribute('aria-label', labelRef.current);
    } else {
      el.removeAttribute('tabindex');
      el.removeAttribute('role');
      el.removeAttribute('aria-label');
    }
  }, []);
  useEffect(() => {
    labelRef.current = label;
    if (node.current?.hasAttribute('role')) node.current.setAttribute('aria-label', label);
  }, [label]);
  useEffect(() => () => stop.current?.(), []);
  return useCallback(
    (el: HTMLElement | null) => {
      stop.current?.();
      stop.current = null;
      node.current = el;
      if (!el || typeof ResizeObserver === 'undefined') return;
      // The observer reports each element once it is laid out, and on every change after.
      const observer = new ResizeObserver(() => apply(el));
      observer.observe(el);
      if (el.firstElementChild) observer.observe(el.firstElementChild);
      stop.current = () => observer.disconnect();
    },
    [apply],
  );
}
