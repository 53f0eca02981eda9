import { defineConfig } from 'vitest/config';

// The server suite runs on embedded PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set.
const common = { include: ['src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    projects: [
      { test: { ...common, name: 'pglite', env: { TEST_DB: 'pglite' } } },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                ...common,
                name: 'postgres',
                env: { TEST_DB: 'postgres' },
                // Configuration and process tests do not depend on the database: they run once.
                exclude: ['src/config.test.ts', 'src/main.test.ts', 'src/supervise.test.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
