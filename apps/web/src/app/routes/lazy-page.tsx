import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { preloadable } from '../../lib/preloadable.tsx';

export function PageFallback() {
  return (
    <Center mih={240}>
      <Loader role="status" aria-label="Loading page" />
    </Center>
  );
}

/**
 * A route element whose code is fetched only when it renders (or is preloaded: see preloadDashboard). Guards
 * render <Navigate> instead of their children, so a signed-out visitor never downloads the dashboard (unlike
 * route `lazy`, which loads every matched route's module before any guard runs).
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = <PageFallback />,
) {
  const Page = preloadable(load);
  function LazyPage(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Page {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyPage, { preload: Page.preload });
}
