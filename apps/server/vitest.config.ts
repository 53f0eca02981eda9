import os from 'node:os';
import { defineConfig } from 'vitest/config';

// The server suite runs on embedded PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set.
// isolate: false: a worker runs its files one after another in one module graph (~3.5 minutes instead of ~6.5: the
// app's modules are loaded once per worker instead of once per file, ~150 s of imports, and run warm). Every file
// opens its own database and emulator and closes them in afterAll; none mocks a module.
const common = { include: ['src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000, isolate: false };

export default defineConfig({
  test: {
    // Two files at a time even on a 2-core machine (vitest's default there is one): most of a file's time is spent
    // waiting on the database, the emulator and timers.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      // Closing a connection pool is PostgreSQL's alone.
      { test: { ...common, name: 'pglite', env: { TEST_DB: 'pglite' }, exclude: ['src/db/close.test.ts'] } },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                ...common,
                name: 'postgres',
                env: { TEST_DB: 'postgres' },
                // One migrated template database per run, which each test app's database is copied from.
                globalSetup: ['src/testing/global-setup.ts'],
                // Configuration and process tests do not depend on the database, and the recycled test databases
                // are PGlite's: they run once.
                exclude: [
                  'src/config.test.ts',
                  'src/lib/secrets-key.test.ts',
                  'src/main.test.ts',
                  'src/supervise.test.ts',
                  'src/testing/db-template.test.ts',
                ],
              },
            },
          ]
        : []),
    ],
  },
});
