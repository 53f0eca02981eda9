import './app/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Inter ships with the app (same-origin woff2, only the scripts a page uses are fetched): every machine renders
// the same type instead of falling back to Arial where Inter is not installed.
import '@fontsource-variable/inter/wght.css';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { App } from './app/App.tsx';
import { preloadDashboard } from './app/cold-start.ts';
import { getSession } from './lib/session.ts';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// A signed-in cold load of a dashboard page renders once the frame's and the page's code are in, whole
// (index.html's spinner meanwhile): see app/cold-start.ts. Signed out, nothing is preloaded: the guards send
// a dashboard URL to the login page, whose code is not the dashboard's.
const ready = getSession() ? preloadDashboard(window.location.pathname) : Promise.resolve();
void ready.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
