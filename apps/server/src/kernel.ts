import path from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type Database } from './db/client.ts';
import { createQueue, type Queue } from './jobs/queue.ts';
import { registeredJobs } from './jobs/registry.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { secretBox, type SecretBox } from './lib/secret-box.ts';
import { secretsKey } from './lib/secrets-key.ts';
import type { DevClock } from './modules/activity/dev-clock.ts';
import { modules as allModules } from './modules/index.ts';
import { createMailer, type Mailer } from './modules/mail/service.ts';
import { createMetrics, type Metrics } from './modules/metrics/metrics.ts';
import type { Module } from './modules/module.ts';
import { slackApi, type SlackApi } from './slack/client.ts';

/**
 * What every module builds its services on, built before any of them (docs/ARCHITECTURE.md, section 3): the
 * configuration, the logger, the database (migrated), the job queue (its jobs registered), the Slack client factory,
 * the mailer, the metrics and the secret box. A module's `services(kernel, deps)` gets this and the services it
 * declared in `needs`, nothing else.
 */
export type Kernel = {
  config: Config;
  logger: Logger;
  database: Database;
  queue: Queue;
  /** The Slack client factory (rate limits per method and workspace). */
  slack: SlackApi;
  /** The Slack settings as they are now: `setSlack` changes them after start (the demo points them at its emulator). */
  slackConfig: Readonly<Config['slack']>;
  setSlack(next: Partial<Config['slack']>): void;
  mailer: Mailer;
  /** Prometheus metrics (GET /metrics when METRICS_TOKEN is set). */
  metrics: Metrics;
  /** Seals and opens Slack tokens and webhook secrets with the secrets key. */
  box: SecretBox;
  /** The test clock (DEV_CLOCK, end-to-end tests only; null otherwise): modules/activity/dev-clock.ts. */
  devClock: DevClock | null;
  /** This process's modules: their routes, jobs and Slack listeners (`opts.modules` of createContext, or all). */
  modules: readonly Module[];
  /**
   * The assembled AppContext, late-bound: it holds every service, so it exists only once they are all built; calling
   * this before throws. Only what hands the whole context on uses it: intake's drain gives it to the Slack event
   * listeners (`scope.ctx`), as the job workers get it (`queue.startWorkers(ctx)`). A service never reaches
   * another service through it: it declares a need.
   */
  context(): AppContext;
};

const openConfigured = (config: Config) =>
  openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });

/**
 * `ROLE=migrate`: applies the migrations, the job queue's schema and its queues, then closes the database. A container
 * setup runs it once before the api and worker processes (compose.yml); a process of any other role also does this
 * at start-up (taking turns under the same lock), finding it done.
 */
export async function migrateDatabase(config: Config, logger: Logger): Promise<void> {
  const database = await openConfigured(config);
  try {
    await database.exclusive(async () => {
      await database.migrate();
      const q = await createQueue(database, logger);
      await q.register(registeredJobs(allModules));
      await q.stop();
    });
  } finally {
    await database.close();
  }
}

export type KernelOptions = {
  database?: Database;
  logger?: Logger;
  pollingIntervalSeconds?: number;
  modules?: readonly Module[];
};

/**
 * Opens the database, applies the migrations and registers the modules' jobs under the exclusive lock, then builds
 * the rest of the kernel. `bindContext` gives `kernel.context()` its value once context.ts has assembled it.
 */
export async function createKernel(
  config: Config,
  opts: KernelOptions = {},
): Promise<{ kernel: Kernel; bindContext(ctx: AppContext): void }> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const database = opts.database ?? (await openConfigured(config));
  const modules = opts.modules ?? allModules;
  // Processes started together take turns here: the first applies the migrations, the others find them applied.
  const queue = await database.exclusive(async () => {
    await database.migrate();
    const q = await createQueue(database, logger, { pollingIntervalSeconds: opts.pollingIntervalSeconds });
    await q.register(registeredJobs(modules));
    return q;
  });

  const slackConfig = { ...config.slack };
  const slack = slackApi(slackConfig);
  const mailer = createMailer({
    db: database.db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    logger,
    logLinks: config.nodeEnv === 'development',
  });
  const box = secretBox(secretsKey(config));
  const metrics = createMetrics({ database, limits: config.sendLimits });

  let assembled: AppContext | null = null;
  const kernel: Kernel = {
    config,
    logger,
    database,
    queue,
    slack,
    slackConfig,
    setSlack: (next) => void Object.assign(slackConfig, next),
    mailer,
    metrics,
    box,
    devClock: config.devClock ? { levelsDaysAhead: 0 } : null,
    modules,
    context() {
      if (!assembled) throw new Error('kernel.context() was called before the AppContext was assembled');
      return assembled;
    },
  };
  return {
    kernel,
    bindContext: (ctx) => {
      assembled = ctx;
    },
  };
}
