import { Suspense, type ComponentType } from 'react';
import { preloadable } from '../../lib/preloadable.tsx';

/** A feature's part another feature's page shows, loaded as its own chunk when it first renders (or preloaded). */
export function lazySlot<P extends object>(load: () => Promise<ComponentType<P>>) {
  const Slot = preloadable(load);
  function LazySlot(props: P) {
    return (
      <Suspense fallback={null}>
        <Slot {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazySlot, { preload: Slot.preload });
}
