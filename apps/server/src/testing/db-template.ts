import crypto from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
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

/** What `ROLE=migrate` does (kernel.ts migrateDatabase), on an open database. */
async function applyStartup(database: Database) {
  await database.migrate();
  const queue = await createQueue(database, createLogger('silent'));
  await queue.register(registeredJobs(allModules));
  await queue.stop();
}

/** The template's state a used database is put back to (recycled databases, below). */
type TemplateState = {
  /** The dump, as bytes kept in memory (a Blob would be streamed into fresh memory at every load, ~0.3 s). */
  dump: Uint8Array;
  /** Every table, schema-qualified and quoted. */
  tables: string[];
  /** The tables the template has rows in (migrations' records, the job queue's own), with those rows. */
  rows: { table: string; copy: Blob }[];
  /** Every sequence's value: `setval` arguments. */
  sequences: { name: string; value: string; called: boolean }[];
  /** What the catalogue holds (see catalogue below): a database whose catalogue changed is not recycled. */
  catalogue: string;
};

const extensions = { pg_trgm };
const quoted = (schema: string, name: string) =>
  `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;
const userSchemas = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%'
  and n.nspname not like 'pg_toast_temp%'`;

/** A fingerprint of the schema objects: any object created, dropped or altered since the template changes it. */
async function catalogue(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ f: string }>(`select concat_ws(':',
    (select count(*) from pg_class), (select max(oid) from pg_class), (select count(*) from pg_attribute),
    (select count(*) from pg_constraint), (select count(*) from pg_index), (select count(*) from pg_trigger),
    (select max(oid) from pg_proc), (select max(oid) from pg_type), (select count(*) from pg_namespace)) as f`);
  return rows[0]!.f;
}

async function templateState(client: PGlite): Promise<Omit<TemplateState, 'dump'>> {
  const tables = (
    await client.query<{ schema: string; name: string }>(`select n.nspname as schema, c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and ${userSchemas} order by 1, 2`)
  ).rows.map((r) => quoted(r.schema, r.name));
  const rows: TemplateState['rows'] = [];
  for (const table of tables) {
    const { rows: any } = await client.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    if (any[0]!.n === 0) continue;
    const copied = await client.query(`copy ${table} to '/dev/blob'`);
    rows.push({ table, copy: copied.blob! });
  }
  const sequences = (
    await client.query<{ schema: string; name: string }>(`select n.nspname as schema, c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'S' and ${userSchemas}`)
  ).rows.map((r) => quoted(r.schema, r.name));
  const values: TemplateState['sequences'] = [];
  for (const name of sequences) {
    const { rows: v } = await client.query<{ value: string; called: boolean }>(
      `select last_value::text as value, is_called as called from ${name}`,
    );
    values.push({ name, ...v[0]! });
  }
  return { tables, rows, sequences: values, catalogue: await catalogue(client) };
}

let pgliteTemplate: Promise<TemplateState> | undefined;

/** The migrated, empty in-memory PGlite database every test app starts as (made once per test process). */
function pgliteTemplateState(): Promise<TemplateState> {
  pgliteTemplate ??= (async () => {
    const client = await PGlite.create({ extensions });
    const database = await openDatabase({ pgliteLease: { client, giveBack: async () => {} } });
    let dump: Uint8Array;
    try {
      await applyStartup(database);
      dump = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
    } finally {
      await database.close();
      await client.close();
    }
    // The state is read from a copy, not the template itself: a copy opens its dump as after a crash, and its
    // sequences resume past the values PostgreSQL logged ahead (32 a time), so a fresh copy and a recycled one
    // hand out the same next ids. The copy is the first one lent.
    const copy = await PGlite.create({ loadDataDir: new KeptBytes(dump), extensions });
    idle.push(copy);
    return { ...(await templateState(copy)), dump };
  })();
  return pgliteTemplate;
}

/** A Blob whose bytes PGlite reads without a copy (it only reads a dump it loads). */
class KeptBytes extends Blob {
  readonly #data: Uint8Array;
  constructor(data: Uint8Array) {
    super([]);
    this.#data = data;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#data.buffer as ArrayBuffer);
  }
}

/** The migrated, empty database as a dump (the SQL snapshot test opens its own copy). */
export async function migratedPgliteDump(): Promise<Blob> {
  return new KeptBytes((await pgliteTemplateState()).dump);
}

// Opening a PGlite database costs ~1.5 s of CPU (most of it PostgreSQL's start-up zeroing its 128 MB of shared
// buffers, then loading the dump): about a third of the PGlite suite's CPU, in a profile, with a fresh database
// per test app. A closed test app's database is recycled instead: its session is reset (DISCARD ALL), its tables
// emptied and given the template's rows back, its sequences set to the template's values. A database whose
// catalogue changed (a table or function created, a column added), that is still in a transaction, or whose reset
// fails in any way is closed instead. Kept per test process, a few at most.
const idle: PGlite[] = [];
const MAX_IDLE = 3;

async function reset(client: PGlite, template: TemplateState): Promise<boolean> {
  try {
    if ((await catalogue(client)) !== template.catalogue) return false;
    await client.exec('discard all');
    await client.exec(`set session_replication_role = replica;
      truncate ${template.tables.join(', ')};`);
    for (const { table, copy } of template.rows)
      await client.query(`copy ${table} from '/dev/blob'`, [], { blob: copy });
    for (const s of template.sequences)
      await client.query('select setval($1, $2::bigint, $3)', [s.name, s.value, s.called]);
    await client.exec('set session_replication_role = default; set search_path to public;');
    return (await catalogue(client)) === template.catalogue;
  } catch {
    return false;
  }
}

/** An in-memory PGlite database in the template's state, for openDatabase's pgliteLease. */
export async function leasePglite(): Promise<{ client: PGlite; giveBack(): Promise<void> }> {
  const template = await pgliteTemplateState();
  const client =
    idle.pop() ?? (await PGlite.create({ loadDataDir: new KeptBytes(template.dump), extensions }));
  return {
    client,
    async giveBack() {
      if (idle.length < MAX_IDLE && (await reset(client, template))) idle.push(client);
      else await client.close();
    },
  };
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
