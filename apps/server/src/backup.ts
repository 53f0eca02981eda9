/**
 * `npm run backup -- DIR` and `npm run restore -- DIR [--force]`: a whole Flywheel installation's state in a
 * directory, for the embedded database and for PostgreSQL.
 *
 * A backup holds:
 * - `manifest.json`: when, which version, which database kind, how many migrations, how the secrets key is kept;
 * - the database: `pglite.tar.gz` (the embedded database's directory; the server must be stopped) or
 *   `postgres.dump` (`pg_dump --format=custom`, consistent while the server runs);
 * - `data/`: DATA_DIR's own files (the generated `secrets.key` that seals Slack tokens when SECRETS_KEY is not set,
 *   the demo app's credentials): without that key a database backup cannot decrypt the stored tokens.
 *
 * Restore writes them back into an empty DATA_DIR / database (or, with --force, over what is there: the embedded
 * database moved aside, PostgreSQL's objects dropped first), then opens the database and checks that every stored
 * Slack token decrypts with the key it will run with.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getTableName } from 'drizzle-orm';
import { ConfigError, REPO_ROOT, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { pgliteHolder } from './db/pglite-lock.ts';
import { secretBox } from './lib/secret-box.ts';
import { workspaceAdmins, workspaceSenders, workspaces } from './modules/workspaces/table.ts';

const FORMAT = 1;
/** The command line's output (stdout: what it did; errors go to stderr). */
const say = (line: string) => void process.stdout.write(`${line}\n`);
/** DATA_DIR entries that are not copied as files: the embedded database (backed up as a tarball) and its lock. */
const NOT_FILES = new Set(['pglite', 'pglite.pid']);

export type Manifest = {
  format: number;
  createdAt: string;
  version: string;
  database: 'pglite' | 'postgres';
  migrations: number;
  /** `data`: the generated key is in data/secrets.key; `environment`: SECRETS_KEY, which the operator keeps. */
  secretsKey: 'data' | 'environment';
  /** The first 16 hex digits of the key's SHA-256: restore checks that the key it will run with is the same. */
  keyFingerprint: string;
  files: string[];
};

export class BackupError extends Error {}

const fingerprint = (key: Buffer) => crypto.createHash('sha256').update(key).digest('hex').slice(0, 16);
const pgliteDir = (config: Config) => path.join(config.dataDir, 'pglite');

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'], env });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('error', (e) =>
      reject(
        new BackupError(
          (e as NodeJS.ErrnoException).code === 'ENOENT'
            ? `${command} is not installed (PostgreSQL's client tools, the same major version as the server or newer)`
            : e.message,
        ),
      ),
    );
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed (${code}): ${err.trim().slice(-2000)}`)),
    );
  });
}

/** libpq's environment for a connection URL (the password never on a command line). */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  return {
    ...process.env,
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username),
    PGPASSWORD: decodeURIComponent(u.password),
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
    ...(u.searchParams.get('sslmode') ? { PGSSLMODE: u.searchParams.get('sslmode')! } : {}),
  };
}

function keyOf(config: Config): { key: Buffer | undefined; kept: Manifest['secretsKey'] } {
  if (config.secretsKey) return { key: config.secretsKey, kept: 'environment' };
  const file = path.join(config.dataDir, 'secrets.key');
  return {
    key: fs.existsSync(file) ? Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64') : undefined,
    kept: 'data',
  };
}

async function migrationCount(config: Config): Promise<number> {
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl, poolSize: 1 } : { pgliteDir: pgliteDir(config) },
  );
  try {
    const r = await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
    return Number((r.rows[0] as { n: number }).n);
  } catch {
    return 0;
  } finally {
    await database.close();
  }
}

function version(): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
}

export async function backup(config: Config, dest: string, log: (line: string) => void = say) {
  if (fs.existsSync(dest) && fs.readdirSync(dest).length > 0) {
    throw new BackupError(`${dest} is not empty: back up into a new directory`);
  }
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  if (kind === 'pglite') {
    if (!fs.existsSync(pgliteDir(config))) throw new BackupError(`No embedded database in ${config.dataDir}`);
    const holder = pgliteHolder(pgliteDir(config));
    if (holder !== undefined) {
      throw new BackupError(
        `The embedded database is open in a running Flywheel process (pid ${holder}): stop it, then back up ` +
          '(a copy taken while it writes would be torn).',
      );
    }
  }
  const { key, kept } = keyOf(config);
  if (!key) throw new BackupError(`No secrets key: neither SECRETS_KEY nor ${config.dataDir}/secrets.key`);
  const migrations = await migrationCount(config);
  fs.mkdirSync(path.join(dest, 'data'), { recursive: true, mode: 0o700 });
  fs.chmodSync(dest, 0o700);

  if (kind === 'pglite') {
    await run('tar', ['-czf', path.join(dest, 'pglite.tar.gz'), '-C', config.dataDir, 'pglite']);
  } else {
    await run(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', '--file', path.join(dest, 'postgres.dump')],
      libpqEnv(config.databaseUrl!),
    );
  }
  fs.chmodSync(path.join(dest, kind === 'pglite' ? 'pglite.tar.gz' : 'postgres.dump'), 0o600);
  const files: string[] = [];
  if (fs.existsSync(config.dataDir)) {
    for (const entry of fs.readdirSync(config.dataDir, { withFileTypes: true })) {
      if (!entry.isFile() || NOT_FILES.has(entry.name)) continue;
      fs.copyFileSync(path.join(config.dataDir, entry.name), path.join(dest, 'data', entry.name));
      fs.chmodSync(path.join(dest, 'data', entry.name), 0o600);
      files.push(entry.name);
    }
  }
  const manifest: Manifest = {
    format: FORMAT,
    createdAt: new Date().toISOString(),
    version: version(),
    database: kind,
    migrations,
    secretsKey: kept,
    keyFingerprint: fingerprint(key),
    files,
  };
  fs.writeFileSync(path.join(dest, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  log(
    `Backed up the ${kind === 'pglite' ? 'embedded' : 'PostgreSQL'} database (${migrations} migrations) and ` +
      `${files.length} file(s) of ${config.dataDir} into ${dest}.`,
  );
  log(
    kept === 'data'
      ? 'The key that seals the Slack tokens is in the backup (data/secrets.key): keep the backup as secret as the tokens.'
      : 'The Slack tokens are sealed with SECRETS_KEY, which is not in the backup: keep it with the backup, restore needs it.',
  );
  return manifest;
}

export async function restore(
  config: Config,
  source: string,
  opts: { force?: boolean } = {},
  log: (line: string) => void = say,
) {
  const manifestFile = path.join(source, 'manifest.json');
  if (!fs.existsSync(manifestFile))
    throw new BackupError(`${source} is not a Flywheel backup (no manifest.json)`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  if (manifest.format !== FORMAT) throw new BackupError(`Unknown backup format ${manifest.format}`);
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database !== kind) {
    throw new BackupError(
      `The backup holds ${manifest.database === 'pglite' ? 'an embedded' : 'a PostgreSQL'} database; this ` +
        `configuration uses ${kind === 'pglite' ? 'the embedded database (no DATABASE_URL)' : 'DATABASE_URL'}`,
    );
  }
  // The key the restored installation will run with must be the one the tokens were sealed with.
  const runKey =
    config.secretsKey ??
    (manifest.secretsKey === 'data' && fs.existsSync(path.join(source, 'data/secrets.key'))
      ? Buffer.from(fs.readFileSync(path.join(source, 'data/secrets.key'), 'utf8').trim(), 'base64')
      : undefined);
  if (!runKey) {
    throw new BackupError('The backup was made with SECRETS_KEY: set the same SECRETS_KEY to restore it');
  }
  if (fingerprint(runKey) !== manifest.keyFingerprint) {
    throw new BackupError(
      config.secretsKey
        ? 'SECRETS_KEY is not the key the backup was sealed with: its Slack tokens would not decrypt'
        : "The backup's secrets key does not match its manifest",
    );
  }

  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  for (const name of manifest.files) {
    const target = path.join(config.dataDir, name);
    const incoming = fs.readFileSync(path.join(source, 'data', name));
    if (fs.existsSync(target) && !fs.readFileSync(target).equals(incoming) && !opts.force) {
      throw new BackupError(
        `${target} exists with other contents: restore into an empty DATA_DIR, or use --force`,
      );
    }
  }

  if (kind === 'pglite') {
    const dir = pgliteDir(config);
    const holder = pgliteHolder(dir);
    if (holder !== undefined)
      throw new BackupError(`A running Flywheel process (pid ${holder}) has ${dir} open: stop it`);
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
      if (!opts.force)
        throw new BackupError(`${dir} holds a database: restore into an empty DATA_DIR, or use --force`);
      const aside = `${dir}.before-restore-${Date.now()}`;
      fs.renameSync(dir, aside);
      log(`The embedded database that was there is kept in ${aside}.`);
    }
    await run('tar', ['-xzf', path.join(source, 'pglite.tar.gz'), '-C', config.dataDir]);
  } else {
    const existing = await migrationCount(config);
    if (existing > 0 && !opts.force) {
      throw new BackupError(
        'The database already holds a Flywheel installation: restore into an empty one, or use --force',
      );
    }
    await run(
      'pg_restore',
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        ...(existing > 0 ? ['--clean', '--if-exists'] : []),
        '--dbname',
        libpqEnv(config.databaseUrl!).PGDATABASE!,
        path.join(source, 'postgres.dump'),
      ],
      libpqEnv(config.databaseUrl!),
    );
  }
  for (const name of manifest.files) {
    fs.copyFileSync(path.join(source, 'data', name), path.join(config.dataDir, name));
    fs.chmodSync(path.join(config.dataDir, name), 0o600);
  }

  // Every stored Slack token must open with the key the installation runs with.
  const box = secretBox(runKey);
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl, poolSize: 1 } : { pgliteDir: pgliteDir(config) },
  );
  let tokens = 0;
  try {
    // The workspaces module's tables that hold sealed tokens (raw SQL: executeSql takes a string).
    const [ws, admins, senders] = [workspaces, workspaceAdmins, workspaceSenders].map((t) => getTableName(t));
    const sealed = await database.executeSql(
      `select bot_token_sealed as t from ${ws} where bot_token_sealed is not null
       union all select user_token_sealed from ${admins} where user_token_sealed is not null
       union all select user_token_sealed from ${senders}
       union all select bot_refresh_token_sealed from ${ws} where bot_refresh_token_sealed is not null
       union all select user_refresh_token_sealed from ${senders} where user_refresh_token_sealed is not null`,
    );
    for (const row of sealed.rows as { t: string }[]) {
      box.open(row.t);
      tokens++;
    }
  } catch (err) {
    throw new BackupError(`Restored, but a stored Slack token does not decrypt: ${(err as Error).message}`);
  } finally {
    await database.close();
  }
  log(
    `Restored the backup of ${manifest.createdAt} (version ${manifest.version}, ${manifest.migrations} migrations): ` +
      `${tokens} Slack token(s) decrypt. Start Flywheel as usual.`,
  );
  return { tokens };
}

// The command line (dist/backup.js, or this file through tsx).
const invoked =
  process.argv[1] &&
  path.resolve(process.argv[1]).replace(/\.(ts|js)$/, '') === import.meta.filename.replace(/\.(ts|js)$/, '');
if (invoked) {
  const [command, dir, ...rest] = process.argv.slice(2);
  const envFile = path.join(REPO_ROOT, '.env');
  if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
  try {
    if ((command !== 'backup' && command !== 'restore') || !dir) {
      throw new BackupError('usage: backup DIR | restore DIR [--force]');
    }
    const config = loadConfig();
    if (command === 'backup') await backup(config, path.resolve(dir));
    else await restore(config, path.resolve(dir), { force: rest.includes('--force') });
  } catch (err) {
    if (err instanceof BackupError || err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
