/// <reference types="vitest/config" />
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { bootPreload, mantinePatches, preloadFont } from './scripts/vite-plugins.ts';
import { FIRST_CALL_TEAM, FIRST_CALL_USER } from './src/lib/early-requests.ts';
import firstCalls from './src/app/first-calls.json' with { type: 'json' };

const reactRouter = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const apiProxy = { '/api': { target: 'http://localhost:3000', changeOrigin: false } };

export default defineConfig(({ command }) => ({
  // The boot script reads src/lib/session.ts's SESSION_KEY and calls src/lib/api-envelope.ts's API_BASE.
  plugins: [
    react(),
    mantinePatches(),
    preloadFont(),
    bootPreload('flywheel.session', firstCalls, { team: FIRST_CALL_TEAM, user: FIRST_CALL_USER }, '/api/v0'),
  ],
  // React Router's package resolves to its development build under every condition; a built app takes the
  // production one (no dev-only checks and warnings in the page's code).
  resolve:
    command === 'build'
      ? {
          alias: [
            { find: /^react-router$/, replacement: path.join(reactRouter, 'dist/production/index.mjs') },
          ],
        }
      : {},
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/bundle-report.mjs reads the manifest to size what /auth/login loads.
    manifest: true,
    chunkSizeWarningLimit: 600,
    // An entity's index.ts re-exports its modules (src/entities): a page takes only the modules whose exports it
    // uses, not every module the index names (they declare and export, nothing runs on import).
    rolldownOptions: {
      treeshake: { moduleSideEffects: [{ test: /\/src\/entities\//, sideEffects: false }] },
      // zod and app/zod-config.ts (z.config({ jitless: true })) in one chunk: every chunk that uses zod imports it,
      // so jitless is set before any of their top-level code parses (else zod probes `new Function`, a CSP
      // violation, when a chunk holding zod is evaluated before the one holding main.tsx's first import).
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'zod',
              test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]app[\\/]zod-config\.ts/,
              priority: 100,
            },
          ],
        },
      },
    },
  },
  test: {
    // Two files at a time even on a 2-core machine (vitest's default there is one): ~3.5 minutes instead of ~5.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker runs its files one after another in one module graph and jsdom (~2 minutes instead of ~3.5: each
    // file no longer loads React, Mantine and the app again). Files must not depend on a fresh module: no
    // vi.mock of a module another file imports (testing/downloads.ts captures saved files instead), and the
    // setup file's afterEach resets what the page holds.
    isolate: false,
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    testTimeout: 30000,
  },
}));
