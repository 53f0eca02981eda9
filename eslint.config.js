import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import fs from 'node:fs';
import path from 'node:path';

// The web app's layers (docs/ARCHITECTURE.md, 'The web app's folders'), from the bottom: lib (entity-free helpers),
// entities (the data several features share: API calls, query keys and hooks, types), components (shared UI; an
// entity-aware picker or preview reads entities), features (one product each), app (router, shell, slots: it
// composes features). A folder imports only the layers below it; a feature never imports another feature; an
// entity is imported through its index.ts. Paths are resolved, so a relative path cannot slip past.
const WEB = 'apps/web/src';
const subfolders = (dir) =>
  fs
    .readdirSync(path.join(import.meta.dirname, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const importSettings = {
  'import-x/extensions': ['.ts', '.tsx', '.js'],
  'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
};
const webLayers = {
  files: [`${WEB}/**/*.{ts,tsx}`],
  plugins: { 'import-x': importX },
  settings: importSettings,
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [
          ...subfolders(`${WEB}/features`).map((feature) => ({
            target: `${WEB}/features/${feature}/**`,
            from: `${WEB}/features/!(${feature})/**`,
            message: 'A feature must not import another feature; app/ composes them (routes, slots, tabs).',
          })),
          {
            target: `${WEB}/features/**`,
            from: `${WEB}/app/**`,
            message: 'A feature must not import app/ (app/ imports features).',
          },
          {
            target: `${WEB}/components/**`,
            from: [`${WEB}/features/**`, `${WEB}/app/**`],
            message: 'Shared components must not import features or app/.',
          },
          {
            target: `${WEB}/entities/**`,
            from: [`${WEB}/features/**`, `${WEB}/app/**`, `${WEB}/components/**`],
            message: 'An entity holds data, not UI: it must not import features, app/ or components.',
          },
          {
            target: `${WEB}/lib/**`,
            from: [`${WEB}/features/**`, `${WEB}/app/**`, `${WEB}/components/**`, `${WEB}/entities/**`],
            message: 'lib/ is entity-free: it must not import entities, components, features or app/.',
          },
          {
            target: `${WEB}/testing/**`,
            from: `${WEB}/features/**`,
            message: 'The test helpers must not import features.',
          },
          ...subfolders(`${WEB}/entities`).map((entity) => ({
            target: [`${WEB}/!(entities)/**`, `${WEB}/entities/!(${entity})/**`],
            from: `${WEB}/entities/${entity}/**`,
            except: [`**/${WEB}/entities/${entity}/index.ts`],
            message: `Import entities/${entity} through its index.ts (its public surface).`,
          })),
        ],
      },
    ],
  },
};

// No import circle in product code: a runtime cycle makes a module's exports undefined at the time another reads
// them, depending on which loads first. Type-only imports (`import type`) are erased at build time and not counted.
const noCycle = {
  files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}'],
  ignores: ['**/*.test.{ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: importSettings,
  rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'bench/**', '**/scripts/**', '**/cli.ts', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
  webLayers,
  noCycle,
);
