/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The page's Latin font is asked for with the HTML: without this the browser finds it only when the first text
 * is laid out, after the app has rendered, and the text is drawn again when it arrives.
 */
function preloadFont(): Plugin {
  return {
    name: 'flywheel-preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((f) => /inter-latin-wght-normal-.*\.woff2$/.test(f));
        if (!font) return [];
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

const apiProxy = { '/api': { target: 'http://localhost:3000', changeOrigin: false } };

export default defineConfig({
  plugins: [react(), preloadFont()],
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
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    testTimeout: 30000,
  },
});
