/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { bootPreload, preloadFont } from './scripts/vite-plugins.ts';
import { FIRST_CALL_TEAM, FIRST_CALL_USER } from './src/lib/early-requests.ts';
import firstCalls from './src/app/first-calls.json' with { type: 'json' };

const apiProxy = { '/api': { target: 'http://localhost:3000', changeOrigin: false } };

export default defineConfig({
  // The boot script reads src/lib/session.ts's SESSION_KEY and calls src/lib/api-envelope.ts's API_BASE.
  plugins: [
    react(),
    preloadFont(),
    bootPreload('flywheel.session', firstCalls, { team: FIRST_CALL_TEAM, user: FIRST_CALL_USER }, '/api/v0'),
  ],
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/bundle-report.mjs reads the manifest to size what /auth/login loads.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  test: {
    // Two files at a time even on a 2-core machine (vitest's default there is one): ~3.5 minutes instead of ~5.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    testTimeout: 30000,
  },
});
