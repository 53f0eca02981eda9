import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, REPO_ROOT, loadConfig } from './config.ts';
import { createContext } from './context.ts';
import { migrateDatabase } from './kernel.ts';
import { startDemo } from './demo/demo.ts';
import type { EmulatorProcess } from './demo/emulator-process.ts';
import { processLogger } from './lib/logger.ts';
import { databaseHealth } from './modules/health/check.ts';
import { startSocketMode, type SocketModeConnection } from './modules/intake/socket-mode.ts';

/** Exit code for a wrong configuration (EX_CONFIG); supervise.ts does not restart after it. */
const EXIT_CONFIG = 78;
/** How often the process reports its health to the supervisor. */
const HEALTH_REPORT_MS = 5_000;

// A local .env is read when present; real environment variables win.
const envFile = path.join(REPO_ROOT, '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    // The supervisor (supervise.ts) does not start again after this code: the configuration must change.
    process.exit(EXIT_CONFIG);
  }
  throw err;
}

const logger = processLogger(config.logLevel, config.logFormat);
if (config.role === 'migrate') {
  await migrateDatabase(config, logger);
  logger.info('migrations applied');
  process.exit(0);
}
const started = Date.now();
const ctx = await createContext(config, { logger });
const app = config.role === 'worker' ? undefined : await buildApp(ctx);
let emulator: EmulatorProcess | undefined;
let socket: SocketModeConnection | undefined;

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
    await socket?.stop();
    await app?.close();
    await emulator?.stop();
    await ctx.close();
    logger.info('shutdown complete');
    process.exit(0);
  } catch (err) {
    logger.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
// Registered before anything listens, so a stop during start-up is graceful too.
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// Under the supervisor (npm start, over its IPC channel): a health report every few seconds. A process whose
// database stops answering, or whose event loop stops, stops reporting health and is restarted (supervise.ts).
if (process.send) {
  let checking = false;
  const report = async () => {
    if (checking || stopping) return;
    checking = true;
    try {
      const db = await databaseHealth(ctx.database, config.healthDbTimeoutMs);
      if (!db.ok) logger.error({ reason: db.reason }, 'health: the database does not answer');
      process.send?.({ type: 'health', ok: db.ok });
    } finally {
      checking = false;
    }
  };
  setInterval(() => void report(), HEALTH_REPORT_MS).unref();
}

if (config.role !== 'api') await ctx.startWorkers();
if (app) await app.listen({ port: config.port, host: config.host });

if (app && config.demo.enabled && !stopping) {
  const port = (app.server.address() as { port: number }).port;
  try {
    emulator = await startDemo(ctx, `http://127.0.0.1:${port}`);
  } catch (err) {
    logger.error({ err }, 'The demo could not start (is DEMO_EMULATOR_PORT free?); Flywheel runs without it');
  }
}

// Socket Mode: processes that run the workers hold the connection (several such processes: one each; Slack
// spreads envelopes over them and the inbox keeps one row per event_id). The API-only role never connects.
if (config.socketMode && config.role !== 'api' && !stopping) {
  if (!ctx.slack.appToken) {
    logger.error(
      'Socket Mode is on but there is no app-level token (SLACK_APP_TOKEN): no events will arrive',
    );
  } else {
    try {
      socket = await startSocketMode(ctx);
    } catch (err) {
      const code = (err as { data?: { error?: string } }).data?.error;
      logger.fatal(
        { err, slackError: code },
        code
          ? `Slack refused the app-level token (SLACK_APP_TOKEN: ${code}); it needs the connections:write scope`
          : 'Socket Mode could not connect',
      );
      process.exit(code ? EXIT_CONFIG : 1);
    }
  }
}

logger.info(
  {
    role: config.role,
    database:
      ctx.database.kind === 'pglite' ? `PGlite at ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL',
    mail: ctx.mailer.transport === 'smtp' ? 'SMTP' : 'development outbox (GET /api/dev/outbox)',
    slack: emulator ? `demo emulator at ${emulator.url}` : config.slack.apiUrl,
    slackTransport: config.socketMode
      ? socket
        ? 'Socket Mode'
        : 'Socket Mode (API role: not connected)'
      : 'HTTP',
    startupMs: Date.now() - started,
  },
  app ? `Flywheel is running at ${config.publicUrl}` : 'Flywheel worker is running',
);
