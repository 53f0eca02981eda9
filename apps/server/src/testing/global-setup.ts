import type { TestProject } from 'vitest/node';
import { createPostgresTemplate, dropPostgresDatabase } from './db-template.ts';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmenting vitest's interface
  interface ProvidedContext {
    /** The migrated PostgreSQL database test databases are copied from (db-template.ts). */
    postgresTemplate: string;
  }
}

/** The PostgreSQL project's run: one migrated template database, dropped at the end. */
export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  const name = await createPostgresTemplate(base);
  project.provide('postgresTemplate', name);
  return async () => {
    await dropPostgresDatabase(base, name);
  };
}
