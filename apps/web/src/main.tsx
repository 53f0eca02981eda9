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

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
