import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { createQueue, type Queue } from './jobs/queue.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { secretBox } from './lib/secret-box.ts';
import { authPurgeJob } from './modules/auth/jobs.ts';
import { authService, type AuthService } from './modules/auth/service.ts';
import { mailSendJob } from './modules/mail/jobs.ts';
import { botService, type BotService } from './modules/bot/service.ts';
import { createMailer, type Mailer } from './modules/mail/service.ts';
import type { PublicConfig } from './modules/platform/routes.ts';
import { backfillService, type BackfillService } from './modules/slack/backfill.ts';
import { eventsService, type EventsService } from './modules/slack/events-service.ts';
import { backfillJob, drainJob, housekeepingJob, windowsJob } from './modules/slack/jobs.ts';
import { refreshStandingWindows } from './modules/slack/standing-windows.ts';
import { maintenanceJob } from './db/maintenance.ts';
import type { InteractivityHandler } from './modules/slack/routes.ts';
import { installService, type InstallService } from './modules/workspaces/install.ts';
import { workspacesService, type WorkspacesService } from './modules/workspaces/service.ts';
import { slackApi, type SlackApi } from './slack/client.ts';

/** Everything a process holds: configuration, database, queue and the module services. */
export type AppContext = {
  config: Config;
  logger: Logger;
  database: Database;
  queue: Queue;
  mailer: Mailer;
  slack: SlackApi;
  services: {
    auth: AuthService;
    workspaces: WorkspacesService;
    events: EventsService;
    backfill: BackfillService;
    install: InstallService;
    /** Bot name and image per workspace; `botIdentity` for chat:write.customize. */
    bot: BotService;
  };
  interactivity: Map<string, InteractivityHandler>;
  /** Asks a worker to apply stored events soon (coalesced). */
  pokeDrain(): void;
  isKnownTeam(teamId: string): Promise<boolean>;
  /** Slack settings can change after start (the demo points them at its emulator). */
  setSlack(next: Partial<Config['slack']>): void;
  publicConfig: () => PublicConfig;
  setPublicConfig(next: PublicConfig): void;
  /** Starts this process's job workers and resumes interrupted history imports. */
  startWorkers(): Promise<void>;
  close(): Promise<void>;
};

/** The key that seals Slack tokens: SECRETS_KEY, or one generated once into DATA_DIR (embedded use). */
function secretsKey(config: Config): Buffer {
  if (config.secretsKey) return config.secretsKey;
  const file = path.join(config.dataDir, 'secrets.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

export async function createContext(
  config: Config,
  opts: { database?: Database; logger?: Logger; pollingIntervalSeconds?: number } = {},
): Promise<AppContext> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const database =
    opts.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') }));
  await database.migrate();
  const queue = await createQueue(database, logger, { pollingIntervalSeconds: opts.pollingIntervalSeconds });
  const db = database.db;

  const slackConfig = { ...config.slack };
  const slack = slackApi(slackConfig);

  const mailer = createMailer({
    db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    logger,
    logLinks: config.nodeEnv === 'development',
  });
  const mailJob = mailSendJob(mailer);
  const workspaces = workspacesService(db, secretBox(secretsKey(config)));
  const auth = await authService({ db, config, queue, mailJob, workspaces });
  const events = eventsService({ db, logger, workspaces });
  const bf = backfillService({ db, slack, workspaces, logger, days: config.backfillDays });

  const drain = drainJob(events);
  const windows = windowsJob(async () => refreshStandingWindows(db, await workspaces.allTimezones()));
  const backfillDef = backfillJob(bf, async (teamId, delaySeconds) => {
    await queue.send(backfillDef, { teamId }, delaySeconds ? { startAfter: delaySeconds } : {});
  });
  const bot = botService({ db, workspaces, slack, publicUrl: config.publicUrl, logger });
  const install = installService({
    slack,
    workspaces,
    logger,
    redirectUri: `${config.publicUrl}/installworkspace`,
    onInstalled: async (teamId, how) => {
      known.set(teamId, Date.now());
      // Its standing windows (per-member 7/14/90/365-day totals) start now; the import then adds to them.
      await queue.send(windows, {});
      // A new workspace, a reconnected one, or one whose import failed gets its history (again; idempotent).
      const last = await bf.progress(teamId);
      if (how.isNew || how.reconnected || !last || last.status === 'failed') {
        if (await bf.start(teamId)) await queue.send(backfillDef, { teamId });
      }
    },
  });
  await queue.register([
    mailJob,
    authPurgeJob(auth),
    drain,
    backfillDef,
    housekeepingJob(events),
    windows,
    maintenanceJob(database),
  ]);

  let pokePending = false;
  const pokeDrain = () => {
    if (pokePending) return;
    pokePending = true;
    setTimeout(() => {
      pokePending = false;
      queue.send(drain, {}).catch((err) => logger.error({ err }, 'could not queue the event drain'));
    }, 50).unref();
  };

  // Team ids known to be connected, remembered for 30 s (every event delivery asks).
  const known = new Map<string, number>();
  const isKnownTeam = async (teamId: string) => {
    const seen = known.get(teamId);
    if (seen && Date.now() - seen < 30_000) return true;
    const ws = await workspaces.find(teamId);
    if (ws) known.set(teamId, Date.now());
    return Boolean(ws);
  };

  let publicConfig: PublicConfig = { demoMode: false, demoEmail: null, demoPassword: null };
  let closed = false;
  return {
    config,
    logger,
    database,
    queue,
    mailer,
    slack,
    services: { auth, workspaces, events, backfill: bf, install, bot },
    interactivity: new Map(),
    pokeDrain,
    isKnownTeam,
    setSlack: (next) => Object.assign(slackConfig, next),
    publicConfig: () => publicConfig,
    setPublicConfig: (next) => {
      publicConfig = next;
    },
    async startWorkers() {
      await queue.startWorkers();
      for (const teamId of await bf.listRunning()) await queue.send(backfillDef, { teamId });
      pokeDrain();
      await queue.send(windows, {});
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue.stop();
      mailer.close();
      await database.close();
    },
  };
}
