import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { lockPglite } from './pglite-lock.ts';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';
import { guardMethod, guardTransactions } from './tx-guard.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Raw SQL runner with PostgreSQL's `{ rows }` result shape, as pg-boss wants it. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type Database = {
  kind: 'pglite' | 'postgres';
  db: Db;
  executeSql: ExecuteSql;
  /** Applies the generated SQL migrations (idempotent). */
  migrate(): Promise<void>;
  /**
   * Runs `fn` while no other process of this database runs its own (a session-level advisory lock on
   * PostgreSQL, taken on a connection of its own; PGlite has one process). Start-up writes go through it, so
   * processes started together apply the migrations once and never race them.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** A cheap round trip, for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball (tests start their databases from a migrated one). */
  dumpDataDir?(): Promise<Blob>;
};

/** The session-level advisory lock of start-up (migrations, the job queue's schema and queues). */
const STARTUP_LOCK = 72_410_002;

/** How long closing a PostgreSQL database waits for connections still in use (a shutdown must not hang on one). */
const CLOSE_WAIT_MS = 10_000;

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type OpenOptions = {
  /** postgres:// URL; when absent an embedded PGlite database is opened. */
  databaseUrl?: string;
  /** PGlite data directory; absent means in memory. */
  pgliteDir?: string;
  /** An in-memory PGlite database starts as this dump (Database.dumpDataDir) instead of empty. */
  pgliteLoad?: Blob;
  /**
   * An open PGlite the caller lends (the test suite's recycled databases, testing/db-template.ts): used as it is,
   * and handed back by close() instead of closed.
   */
  pgliteLease?: { client: PGlite; giveBack(): Promise<void> };
  poolSize?: number;
  /** PostgreSQL: how long close() waits for connections still in use (default 10 s). */
  closeWaitMs?: number;
};

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl)
    return openPostgres(opts.databaseUrl, opts.poolSize ?? 10, opts.closeWaitMs ?? CLOSE_WAIT_MS);
  if (opts.pgliteLease) return wrapPglite(opts.pgliteLease.client, opts.pgliteLease.giveBack);
  return openPglite(opts.pgliteDir, opts.pgliteLoad);
}

async function openPglite(dir: string | undefined, load?: Blob): Promise<Database> {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  const release = dir ? lockPglite(dir) : () => {};
  let client: PGlite;
  try {
    // pg_trgm: the Members search's trigram index (migration 0025).
    const extensions = { pg_trgm };
    client = await PGlite.create(
      load && !dir ? { loadDataDir: load, extensions } : { dataDir: dir, extensions },
    );
  } catch (err) {
    release();
    throw err;
  }
  return wrapPglite(client, async () => {
    await client.close();
    release();
  });
}

/**
 * The Database over an open PGlite client. Its statements go through a view of the client (its query, exec,
 * transaction and dump): once closed, the view refuses them, so nothing left over from this Database reaches the
 * client after it is closed or handed on.
 */
function wrapPglite(client: PGlite, end: () => Promise<void>): Database {
  let closed = false;
  const open =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      closed ? Promise.reject(new Error('the database is closed')) : fn(...args);
  const view = {
    query: open(client.query.bind(client)),
    exec: open(client.exec.bind(client)),
    transaction: open(client.transaction.bind(client)),
    dumpDataDir: open(client.dumpDataDir.bind(client)),
  } as Pick<PGlite, 'query' | 'exec' | 'transaction' | 'dumpDataDir'>;
  // One connection: a statement through the client inside one of its transactions waits for itself (tx-guard.ts).
  const owner = {};
  for (const method of ['query', 'exec', 'transaction'] as const) guardMethod(owner, view, method);
  const db = drizzlePglite({ client: view as PGlite, schema }) as unknown as Db;
  guardTransactions(owner, db);
  const executeSql: ExecuteSql = async (text, values) => {
    if (values && values.length > 0) return view.query(text, values);
    // Multi-statement SQL without parameters (pg-boss migrations) needs exec.
    const results = await view.exec(text);
    return results.at(-1) ?? { rows: [] };
  };
  return {
    kind: 'pglite',
    db,
    executeSql,
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    exclusive: (fn) => fn(),
    ping: async () => {
      await view.query('select 1');
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await end();
    },
    dumpDataDir: () => view.dumpDataDir('none'),
  };
}

async function openPostgres(url: string, max: number, closeWaitMs: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  // The same rule as on PGlite (tx-guard.ts), so that the PostgreSQL run of the suite catches it too.
  const owner = {};
  for (const method of ['query', 'connect'] as const) guardMethod(owner, pool, method);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  guardTransactions(owner, db);
  return {
    kind: 'postgres',
    db,
    executeSql: (text, values) => pool.query(text, values as unknown[]),
    migrate: () => migratePg(db as never, { migrationsFolder }),
    async exclusive(fn) {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        try {
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
        }
      } finally {
        client.release();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => endPool(pool, closeWaitMs),
  };
}

/**
 * Ends the pool: idle connections close at once, ones in use when they are released. A connection never released
 * (a statement that hangs, a leak) would hold the close for ever: after `waitMs` it is left to the process's end,
 * with a warning naming how many.
 */
async function endPool(pool: pg.Pool, waitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
    timer.unref();
  });
  const outcome = await Promise.race([pool.end().then(() => 'ended' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late')
    process.emitWarning(
      `closing the database: ${pool.totalCount - pool.idleCount} connection(s) still in use after ` +
        `${waitMs / 1000} s; not waiting for them`,
    );
}
