import { useCallback, useEffect, useRef } from 'react';

/**
 * A ref for a scrolling box (a table's viewport): while its content is wider or taller than the box (it scrolls,
 * as a wide table does on a phone), the box is a named group in the tab order, so the arrow keys can scroll it
 * (axe: scrollable-region-focusable); one that fits stays out of the tab order.
 * The attributes are set on the element, not through React state: a state change here rendered the whole table
 * again after its first render. They are set as the element joins the page (React attaches refs in the commit,
 * so the page's first paint already has them: measured later, they were the page's last change ~50-120 ms after
 * its render) and again as its ResizeObserver reports; an attribute is written only when it changes.
 */
export function useScrollFocus(label: string): (el: HTMLElement | null) => void {
  const labelRef = useRef(label);
  const stop = useRef<(() => void) | null>(null);
  const node = useRef<HTMLElement | null>(null);
  const apply = useCallback((el: HTMLElement) => {
    const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    const set = (name: string, value: string | null) => {
      if (el.getAttribute(name) === value) return;
      if (value === null) el.removeAttribute(name);
      else el.setAttribute(name, value);
    };
    set('tabindex', scrolls ? '0' : null);
    set('role', scrolls ? 'group' : null);
    set('aria-label', scrolls ? labelRef.current : null);
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
      // Now (a layout the browser does before its next paint anyway), then on every change of either size.
      apply(el);
      const observer = new ResizeObserver(() => apply(el));
      observer.observe(el);
      if (el.firstElementChild) observer.observe(el.firstElementChild);
      stop.current = () => observer.disconnect();
    },
    [apply],
  );
}
