import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Queue } from './jobs/queue.ts';
import { createKernel, type Kernel } from './kernel.ts';
import type { Logger } from './lib/logger.ts';
import type { DevClock } from './modules/activity/dev-clock.ts';
import { composeServices } from './modules/compose.ts';
import { modules as allModules } from './modules/index.ts';
import { drainJob } from './modules/intake/jobs.ts';
import { windowsJob } from './modules/activity/jobs.ts';
import type { Mailer } from './modules/mail/service.ts';
import type { Metrics } from './modules/metrics/metrics.ts';
import type { Module } from './modules/module.ts';
import type { PublicConfig } from './modules/platform/routes.ts';
import type { Services } from './modules/services.ts';
import { resumeHistoryImports } from './modules/workspace-data/module.ts';
import type { SlackApi } from './slack/client.ts';

/** Everything a process holds: configuration, database, queue, the Slack client factory, services, modules. */
export type AppContext = {
  config: Config;
  logger: Logger;
  database: Database;
  queue: Queue;
  /** Prometheus metrics (GET /metrics when METRICS_TOKEN is set). */
  metrics: Metrics;
  mailer: Mailer;
  slack: SlackApi;
  /** Every module's services, by name (the registry: modules/services.ts). */
  services: Services;
  /** The test clock (DEV_CLOCK, end-to-end tests only; null otherwise): modules/activity/dev-clock.ts. */
  devClock: DevClock | null;
  /** Every module of this process (routes, jobs, Slack listeners), in registration order. */
  modules: readonly Module[];
  /** Slack settings can change after start (the demo points them at its emulator). */
  setSlack(next: Partial<Config['slack']>): void;
  publicConfig: () => PublicConfig;
  setPublicConfig(next: PublicConfig): void;
  /** Starts this process's job workers, then what each module resumes (history imports, the drain). */
  startWorkers(): Promise<void>;
  close(): Promise<void>;
};

/**
 * Composition only (docs/ARCHITECTURE.md, section 3): the kernel (database migrated and jobs registered under the
 * exclusive lock, queue, Slack, mailer, metrics, secret box), then every module's services in the order of their
 * needs, then the context. The services are every module's of the product whatever `opts.modules` lists (a test
 * may run a subset, or add modules): `opts.modules` chooses the routes, jobs and Slack listeners.
 */
export async function createContext(
  config: Config,
  opts: { database?: Database; logger?: Logger; pollingIntervalSeconds?: number; modules?: Module[] } = {},
): Promise<AppContext> {
  const { kernel, bindContext } = await createKernel(config, opts);
  const services = await composeServices(kernel, [
    ...allModules,
    ...kernel.modules.filter((m) => !allModules.includes(m)),
  ]);
  const ctx = assemble(kernel, services);
  bindContext(ctx);
  return ctx;
}

function assemble(kernel: Kernel, services: Services): AppContext {
  const { config, logger, database, queue, metrics, mailer, slack, devClock, modules } = kernel;
  let publicConfig: PublicConfig = { demoMode: false, demoEmail: null, demoPassword: null };
  let closed = false;
  const ctx: AppContext = {
    config,
    logger,
    database,
    queue,
    metrics,
    mailer,
    slack,
    devClock,
    services,
    modules,
    setSlack: kernel.setSlack,
    publicConfig: () => publicConfig,
    setPublicConfig: (next) => {
      publicConfig = next;
    },
    async startWorkers() {
      await queue.startWorkers(ctx);
      await resumeHistoryImports(ctx);
      await queue.send(drainJob, {});
      await queue.send(windowsJob, {});
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue.stop();
      mailer.close();
      await database.close();
    },
  };
  return ctx;
}
