import { lazy, useState, type ComponentType } from 'react';

/**
 * A component whose code is fetched when it first renders (as React.lazy), or earlier through `preload()`: a
 * component mounted after its code is in renders at once, with no fallback committed and then replaced. That
 * matters on a cold load, because React shows a suspended boundary's content no sooner than 300 ms after the
 * previous fallback came or went: through three nested lazy parts (frame, page, charts) Home waited ~0.9 s for
 * that alone. Render it inside a <Suspense>, as React.lazy.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = (): Promise<ComponentType<P>> => {
    loading ??= load().then((component) => (loaded = component));
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    // Chosen once per mount, so a page never switches from one to the other (which would remount it).
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}
