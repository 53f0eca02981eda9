import crypto from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.ts';
import { createQueue } from '../jobs/queue.ts';
import { registeredJobs } from '../jobs/registry.ts';
import { createLogger } from '../lib/logger.ts';
import { modules as allModules } from '../modules/index.ts';

// A test's database starts migrated: applying the migrations, the job queue's schema and its queues took ~3 s of
// CPU per test app on PGlite (61 apps per run of the suite) and as long on PostgreSQL. They are applied once, to a
// template: an in-memory PGlite dump per test process, a PostgreSQL template database per run (global-setup.ts).
// createContext still runs the same start-up on the copy, which then finds everything applied.

/** What `ROLE=migrate` does (context.ts migrateDatabase), on an open database. */
async function applyStartup(database: Database) {
  await database.migrate();
  const queue = await createQueue(database, createLogger('silent'));
  await queue.register(registeredJobs(allModules));
  await queue.stop();
}

/**
 * A dump whose bytes are read once. PGlite reads a dump it loads with `arrayBuffer()`, which Node answers by
 * streaming the blob in chunks into fresh memory: ~0.3 s of CPU for this 36 MB dump, for every test app (~50 s of
 * a suite run, in a CPU profile). This answers the same bytes every time: PGlite only reads them (it unpacks the
 * tar into its own in-memory files, which copy what they hold), and even a copy of them cost ~0.14 s here.
 */
class ReadOnceDump extends Blob {
  constructor(private readonly bytes: ArrayBuffer) {
    super([]);
  }
  override get size() {
    return this.bytes.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.bytes);
  }
}

let pgliteTemplate: Promise<Blob> | undefined;

/** A migrated, empty in-memory PGlite database, as a dump to open copies from (made once per process). */
export function migratedPgliteDump(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const database = await openDatabase({});
    try {
      await applyStartup(database);
      return new ReadOnceDump(await (await database.dumpDataDir!()).arrayBuffer());
    } finally {
      await database.close();
    }
  })();
  return pgliteTemplate;
}

/** Creates a migrated PostgreSQL database on `baseUrl`'s server to copy test databases from; answers its name. */
export async function createPostgresTemplate(baseUrl: string): Promise<string> {
  const name = `flywheel_template_${crypto.randomBytes(6).toString('hex')}`;
  await adminQuery(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
  try {
    await applyStartup(database);
  } finally {
    await database.close();
  }
  return name;
}

export async function dropPostgresDatabase(baseUrl: string, name: string): Promise<void> {
  await adminQuery(baseUrl, `drop database if exists ${name} with (force)`);
}

async function adminQuery(baseUrl: string, text: string) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}
