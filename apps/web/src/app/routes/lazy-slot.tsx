import { lazy, Suspense, type ComponentType } from 'react';

/** A feature's part another feature's page shows, loaded as its own chunk when it first renders. */
export function lazySlot<P extends object>(load: () => Promise<ComponentType<P>>) {
  const Slot = lazy(async () => ({ default: await load() }));
  return function LazySlot(props: P) {
    return (
      <Suspense fallback={null}>
        <Slot {...props} />
      </Suspense>
    );
  };
}
