import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createContext, type AppContext } from '../context.ts';
import { openDatabase } from '../db/client.ts';
import { createLogger } from '../lib/logger.ts';
import type { Module } from '../modules/module.ts';
import { leasePglite } from './db-template.ts';
import type pino from 'pino';

export type TestApp = { app: FastifyInstance; ctx: AppContext; close(): Promise<void> };

/** Which database this test run uses: the vitest project sets TEST_DB (pglite | postgres). */
export const testDbKind = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

const testDatabaseUrl = (): string => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base)
    throw new Error(
      'TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
    );
  return base;
};

const urlOf = (base: string, name: string): string => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

async function adminQuery(base: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/**
 * Creates a database on TEST_DATABASE_URL's server: empty, or a copy of `template`. A test database is dropped
 * after its file: a commit need not wait for its WAL to reach the disk (every session on it, the test's child
 * processes' too; a crash of the PostgreSQL server is not what is tested).
 */
async function createNamed(base: string, name: string, template?: string): Promise<string> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    await admin.query(`alter database ${name} set synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  return name;
}

/**
 * The next migrated database, made while the current test file runs: copying the template takes 1-3 s of the
 * server's disk, which the file would otherwise wait for, once per test app. Its name starts with the template's
 * (global-setup.ts drops every such database at the end of the run, this spare and any drop cut short included).
 */
let spare: { template: string; name: Promise<string> } | undefined;

function makeSpare(base: string, template: string): void {
  const name = `${template}_s${crypto.randomBytes(6).toString('hex')}`;
  const made = createNamed(base, name, template);
  // A failure surfaces when the spare is taken (awaited there), not as an unhandled rejection meanwhile.
  made.catch(() => {});
  spare = { template, name: made };
}

/**
 * A fresh PostgreSQL database on TEST_DATABASE_URL's server, dropped again by the returned function: empty, or
 * with `migrated` a copy of the run's migrated template (global-setup.ts). A migrated one is taken from the spare
 * made meanwhile, and its drop runs in the background (awaited by nobody: the run's teardown drops what is left).
 */
export async function createScratchDatabase(
  opts: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const base = testDatabaseUrl();
  const template = opts.migrated ? inject('postgresTemplate') : undefined;
  if (!template) {
    const name = await createNamed(base, `flywheel_test_${crypto.randomBytes(6).toString('hex')}`);
    return {
      url: urlOf(base, name),
      drop: () => adminQuery(base, `drop database if exists ${name} with (force)`),
    };
  }
  const taken = spare?.template === template ? spare.name : undefined;
  spare = undefined;
  const name = taken
    ? await taken.catch(() =>
        createNamed(base, `${template}_s${crypto.randomBytes(6).toString('hex')}`, template),
      )
    : await createNamed(base, `${template}_s${crypto.randomBytes(6).toString('hex')}`, template);
  makeSpare(base, template);
  return {
    url: urlOf(base, name),
    async drop() {
      adminQuery(base, `drop database if exists ${name} with (force)`).catch(() => {});
    },
  };
}

/**
 * The whole server on a real database: embedded PGlite in memory, or a scratch PostgreSQL database when
 * the run targets PostgreSQL. Workers run in-process. Share one per test file (a PGlite database takes ~1.5 s of
 * CPU to open; a closed app's is recycled, db-template.ts).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  opts: {
    logStream?: pino.DestinationStream;
    workers?: boolean;
    /** The module list (default: every module of the product). */
    modules?: Module[];
    /** A database the test keeps (another process opens it after): PGlite in a folder, or a PostgreSQL URL. */
    database?: { pgliteDir: string } | { databaseUrl: string };
  } = {},
): Promise<TestApp> {
  const given = opts.database;
  const scratch =
    !given && testDbKind() === 'postgres' ? await createScratchDatabase({ migrated: true }) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: opts.logStream ? 'info' : 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST: '/nonexistent',
    // Every test signs its users up from one address (inject's 127.0.0.1).
    MAIL_MAX_PER_CLIENT: '100000',
    ...env,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...(given && 'databaseUrl' in given ? { DATABASE_URL: given.databaseUrl } : {}),
  });
  // A database of its own starts migrated (db-template.ts); one the test gives is opened as it is.
  const database = await openDatabase(
    given
      ? { ...given, poolSize: 4 }
      : scratch
        ? { databaseUrl: scratch.url, poolSize: 4 }
        : { pgliteLease: await leasePglite() },
  );
  const logger = createLogger(config.logLevel, opts.logStream);
  // Workers poll as often as in production (every 2 s): a job sent in this process wakes a worker at once, or at
  // its start time (jobs/queue.ts), so the poll only finds the cron's jobs and retries. Polling every 0.5 s kept
  // an idle test app at about a quarter of a core (31 workers' fetches), which the suite paid in every file.
  const ctx = await createContext(config, { database, logger, modules: opts.modules });
  if (opts.workers !== false) await ctx.startWorkers();
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      // A close that ran past the hook's minute once, on PostgreSQL under load, without saying where: each step
      // that takes over 10 s says so on the test's output.
      await timed('the HTTP server', () => app.close());
      await timed('the context (job queue, mailer, database)', () => ctx.close());
      if (scratch) await timed('dropping the scratch database', () => scratch.drop());
    },
  };
}

async function timed(step: string, fn: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  await fn();
  const ms = Date.now() - started;
  if (ms > 10_000) console.warn(`test app close: ${step} took ${(ms / 1000).toFixed(1)} s`);
}
