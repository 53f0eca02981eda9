import './app/zod-config.ts';
// Before React and Mantine run: a signed-in cold load asks for its data now (app/boot-data.ts).
import { bootData, queryClient } from './app/boot-data.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Inter ships with the app (same-origin woff2, only the scripts a page uses are fetched): every machine renders
// the same type instead of falling back to Arial where Inter is not installed.
import '@fontsource-variable/inter/wght.css';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { App } from './app/App.tsx';
import { renderWhen } from './app/boot.ts';
import { preloadDashboard } from './app/cold-start.ts';
import { getSession } from './lib/session.ts';

/**
 * How long the first render waits for the cold load's data once the code is in. Rendered with its data, the page
 * is drawn once instead of as skeletons and then again (each draw of the charts costs the main thread hundreds of
 * milliseconds); a slow answer does not hold the page: past this, it renders with skeletons as any later visit.
 */
const DATA_GRACE_MS = 300;

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// A signed-in cold load of a dashboard page renders once the frame's and the page's code are in, whole
// (index.html's spinner meanwhile): see app/cold-start.ts. Signed out, nothing is preloaded: the guards send
// a dashboard URL to the login page, whose code is not the dashboard's.
const ready = getSession()
  ? renderWhen(preloadDashboard(window.location.pathname), bootData, DATA_GRACE_MS)
  : Promise.resolve();
void ready.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
