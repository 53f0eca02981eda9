import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';

// Web features are slices: a feature never imports another feature's internals, and shared
// folders (components, lib, testing) never import features. Routes (app/) compose features.
const featureBoundary = {
  files: ['apps/web/src/features/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(\\.\\./)+features/',
            message: 'A feature must not import another feature; compose them in app/routes.',
          },
          {
            regex: '^\\.\\./\\.\\./(?!components|entities|lib|testing)[^./]',
            message:
              'A feature may only reach shared folders (components, entities, lib, testing) outside itself.',
          },
        ],
      },
    ],
  },
};

const sharedFolders = {
  files: ['apps/web/src/{components,lib,testing}/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ regex: '(^|/)features/', message: 'Shared folders must not import features.' }] },
    ],
  },
};

// No import circle in product code: a runtime cycle makes a module's exports undefined at the time another reads
// them, depending on which loads first. Type-only imports (`import type`) are erased at build time and not counted.
const noCycle = {
  files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}'],
  ignores: ['**/*.test.{ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: {
    'import-x/extensions': ['.ts', '.tsx', '.js'],
    'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
  },
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
  featureBoundary,
  sharedFolders,
  noCycle,
);
