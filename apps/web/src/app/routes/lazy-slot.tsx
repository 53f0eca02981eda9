import type { ComponentType } from 'react';
import { lazyPage } from './lazy-page.tsx';

/**
 * A feature's part another feature's page shows, loaded as its own chunk when it first renders (or preloaded):
 * a lazy page that shows nothing while it loads.
 */
export const lazySlot = <P extends object>(load: () => Promise<ComponentType<P>>) => lazyPage(load, null);
