import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, vi } from 'vitest';
import { clearSession } from '../lib/session.ts';

// findBy/waitFor wait up to 5 s (the default 1 s failed whole files when the machine was busy): a ceiling on
// waiting, not a timing assertion.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks the layout APIs Mantine reads.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  notifications.clean();
  clearSession();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  // A test that replaced URL's object URLs (to catch a download) gets the environment's back, or a later test file
  // in the same worker would call its stand-ins (vite.config.ts: files share a worker's globals).
  Object.assign(URL, objectUrls);
});

/** URL's object URL functions as the environment made them: kept once per worker, before any test replaced them. */
const objectUrls = ((globalThis as { __objectUrls?: object }).__objectUrls ??= {
  createObjectURL: URL.createObjectURL,
  revokeObjectURL: URL.revokeObjectURL,
});

/**
 * Every module the app loads on demand (pages, tabs, charts, dialogs), loaded before a file's tests. Files share a
 * worker's module graph (vite.config.ts), so a page one file rendered could still be fetching its code when the
 * worker's last file ended: vitest then failed that file with "Cannot load ... after the environment was torn
 * down". With every module in before the first test, nothing is fetched while tests run or after them. Loaded once
 * per worker (later files find them cached).
 */
const lazyModules = import.meta.glob([
  '../app/**/*.tsx',
  '../features/**/*.tsx',
  '../components/**/*.tsx',
  '!**/*.test.tsx',
]);
beforeAll(() => Promise.all(Object.values(lazyModules).map((load) => load())), 120_000);
