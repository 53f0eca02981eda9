import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { createQueue, type Queue } from './jobs/queue.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { authPurgeJob } from './modules/auth/jobs.ts';
import { authService, type AuthService } from './modules/auth/service.ts';
import { mailSendJob } from './modules/mail/jobs.ts';
import { createMailer, type Mailer } from './modules/mail/service.ts';
import type { PublicConfig } from './modules/platform/routes.ts';
import { workspacesService, type WorkspacesService } from './modules/workspaces/service.ts';
import path from 'node:path';

/** Everything a process holds: configuration, database, queue and the module services. */
export type AppContext = {
  config: Config;
  logger: Logger;
  database: Database;
  queue: Queue;
  mailer: Mailer;
  services: { auth: AuthService; workspaces: WorkspacesService };
  publicConfig: () => PublicConfig;
  close(): Promise<void>;
};

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

  const mailer = createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, logger });
  const mailJob = mailSendJob(mailer);
  const workspaces = workspacesService(database.db);
  const auth = await authService({ db: database.db, config, queue, mailJob, workspaces });
  await queue.register([mailJob, authPurgeJob(auth)]);

  let closed = false;
  return {
    config,
    logger,
    database,
    queue,
    mailer,
    services: { auth, workspaces },
    publicConfig: () => ({ demoMode: false, demoEmail: null, demoPassword: null }),
    async close() {
      if (closed) return;
      closed = true;
      await queue.stop();
      mailer.close();
      await database.close();
    },
  };
}
