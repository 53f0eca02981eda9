import { useCallback, useState } from 'react';

/**
 * Which fields of a dialog were left (blurred or changed): a field's problem shows once it was touched
 *, while Submit stays disabled until there is none.
 */
export function useTouched<K extends string>() {
  const [touched, setTouched] = useState<ReadonlySet<K>>(new Set());
  const touch = useCallback((k: K) => setTouched((t) => (t.has(k) ? t : new Set([...t, k]))), []);
  const shown = (k: K, problems: Partial<Record<K, string>>) =>
    touched.has(k) ? (problems[k] ?? null) : null;
  return { touch, shown, reset: () => setTouched(new Set()) };
}
