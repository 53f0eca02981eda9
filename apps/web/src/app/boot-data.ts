import { firstDataPage } from './boot.ts';
import { createQueryClient } from './query-client.ts';
import { getSession } from '../lib/session.ts';

/**
 * The app's query client, made by main.tsx's first import: a signed-in cold load of a dashboard page asks for
 * its data (warm-start.ts) while the frame's and the page's code load, so the answers come back while the browser
 * is busy with the code and the first render can already show them.
 */
export const queryClient = createQueryClient();

const page = firstDataPage(window.location.pathname);

/**
 * Resolves when the cold load's first data is in or has failed (at once when there is nothing to ask). The
 * queries' code is a chunk of its own, which the boot script has already asked for (scripts/main-pages.mjs):
 * the login page does not carry it.
 */
export const bootData: Promise<void> =
  getSession() && page !== null
    ? import('./warm-start.ts').then(
        (m) => m.warmStart(queryClient, page),
        () => undefined,
      )
    : Promise.resolve();
