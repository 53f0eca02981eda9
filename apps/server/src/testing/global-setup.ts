import type { TestProject } from 'vitest/node';
import pg from 'pg';
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
  // Copies left by an earlier run that was killed (their template is gone): a running run's are left alone.
  await dropCopies(base, (copy, templates) => !templates.has(copy.replace(/_s[0-9a-f]{12}$/, '')));
  const name = await createPostgresTemplate(base);
  project.provide('postgresTemplate', name);
  return async () => {
    // The test databases copied from it (build-test-app.ts: their drops run in the background, and one spare
    // is made ahead), then the template.
    await dropCopies(base, (copy) => copy.startsWith(`${name}_s`));
    await dropPostgresDatabase(base, name);
  };
}

/** Drops the copies of templates (`flywheel_template_<hex>_s<hex>`) that `which` picks. */
async function dropCopies(base: string, which: (copy: string, templates: Set<string>) => boolean) {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const names = (await admin.query<{ datname: string }>('select datname from pg_database')).rows.map(
      (r) => r.datname,
    );
    const templates = new Set(names.filter((n) => /^flywheel_template_[0-9a-f]{12}$/.test(n)));
    for (const copy of names.filter((n) => /^flywheel_template_[0-9a-f]{12}_s[0-9a-f]{12}$/.test(n)))
      if (which(copy, templates)) await admin.query(`drop database if exists ${copy} with (force)`);
  } finally {
    await admin.end();
  }
}
