import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, REPO_ROOT, loadConfig } from './config.ts';
import { createContext } from './context.ts';
import { createLogger } from './lib/logger.ts';

// A local .env is read when present; real environment variables win.
const envFile = path.join(REPO_ROOT, '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const logger = createLogger(config.logLevel);
const started = Date.now();
const ctx = await createContext(config, { logger });
const app = config.role === 'worker' ? undefined : await buildApp(ctx);
if (config.role !== 'api') await ctx.startWorkers();
if (app) await app.listen({ port: config.port, host: config.host });

logger.info(
  {
    role: config.role,
    database:
      ctx.database.kind === 'pglite' ? `PGlite at ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL',
    mail: ctx.mailer.transport === 'smtp' ? 'SMTP' : 'development outbox (GET /api/dev/outbox)',
    startupMs: Date.now() - started,
  },
  app ? `Flywheel is running at ${config.publicUrl}` : 'Flywheel worker is running',
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: no new requests, finishing running jobs');
  const force = setTimeout(() => {
    logger.error('shutdown took longer than 25 s; exiting');
    process.exit(1);
  }, 25_000);
  force.unref();
  try {
    await app?.close();
    await ctx.close();
    logger.info('shutdown complete');
    process.exit(0);
  } catch (err) {
    logger.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
