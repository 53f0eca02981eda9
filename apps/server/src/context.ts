import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { createMetrics, type Metrics } from './modules/metrics/metrics.ts';
import { createQueue, type Queue } from './jobs/queue.ts';
import { registeredJobs } from './jobs/registry.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { secretBox } from './lib/secret-box.ts';
import { windowsJob } from './modules/activity/jobs.ts';
import { analyticsService, type AnalyticsService } from './modules/analytics/service.ts';
import { auditService, type AuditService } from './modules/audit/service.ts';
import { authService, type AuthService } from './modules/auth/service.ts';
import { botService, type BotService } from './modules/bot/service.ts';
import { tasksService, type TasksService } from './modules/home/service.ts';
import { modules as allModules } from './modules/index.ts';
import { drainJob } from './modules/intake/jobs.ts';
import { eventListenersOf } from './modules/intake/listeners.ts';
import { eventsService, type EventsService } from './modules/intake/service.ts';
import { createMailer, type Mailer } from './modules/mail/service.ts';
import { memberService, type MemberService } from './modules/member-detail/service.ts';
import { membersService, type MembersService } from './modules/members-list/service.ts';
import type { Module } from './modules/module.ts';
import type { PublicConfig } from './modules/platform/routes.ts';
import { tagsService, type TagsService } from './modules/tags/service.ts';
import { backfillService, type BackfillService } from './modules/workspace-data/history-import.ts';
import { onWorkspaceInstalled, resumeHistoryImports } from './modules/workspace-data/module.ts';
import { installService, type InstallService } from './modules/workspaces/install.ts';
import { workspacesService, type WorkspacesService } from './modules/workspaces/service.ts';
import { tokenProvider } from './modules/workspaces/tokens.ts';
import { slackApi, type SlackApi } from './slack/client.ts';
import { actionsService, type ActionsService } from './modules/actions/service.ts';
import { audienceService, type AudienceService } from './modules/audience/service.ts';
import { bucketsService, type BucketsService } from './modules/buckets/service.ts';
import { deliveryEngine, type DeliveryEngine } from './modules/delivery/engine.ts';
import { wakeDelivery } from './modules/delivery/jobs.ts';
import { pacing } from './modules/delivery/pacing.ts';
import { deliveryRepo } from './modules/delivery/repo.ts';
import { deliveryService, type DeliveryService } from './modules/delivery/service.ts';
import { idempotencyService, type IdempotencyService } from './modules/delivery/idempotency.ts';
import { conversationsService, type ConversationsService } from './modules/conversations/service.ts';
import { llmClient } from './modules/conversations/summary.ts';
import { formsService, type FormsService } from './modules/forms/service.ts';
import type { DevClock } from './modules/activity/dev-clock.ts';
import { workflowsService, type WorkflowsService } from './modules/workflows/service.ts';
import { wakeWorkflowSenderAt } from './modules/workflows/jobs.ts';
import { pollJobs } from './modules/polls/jobs.ts';
import { pollsService, type PollsService, type PollJobs } from './modules/polls/service.ts';
import { wakeWebhooks } from './modules/webhooks/jobs.ts';
import { webhooksService, type Emit, type WebhooksService } from './modules/webhooks/service.ts';
import { notificationsService, type NotificationsService } from './modules/notifications/service.ts';
import { digestService, type DigestService } from './modules/digest/service.ts';

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
  services: {
    auth: AuthService;
    workspaces: WorkspacesService;
    install: InstallService;
    /** Slack intake: the inbox and its drain. */
    events: EventsService;
    /** Workspace data: the history import after an install. */
    historyImport: BackfillService;
    /** Bot name and image per workspace; `botIdentity` for chat:write.customize. */
    bot: BotService;
    tags: TagsService;
    membersList: MembersService;
    /** The advanced analytics table and buckets (saved filters, their runs and members). */
    buckets: BucketsService;
    memberDetail: MemberService;
    analytics: AnalyticsService;
    tasks: TasksService;
    /** Targets (members, tags, channels, workspace, filters) -> recipients, for every sender. */
    audience: AudienceService;
    /** The one sender: receipts, quick actions, images; `deliveryEngine` works the queue of recipients. */
    delivery: DeliveryService;
    deliveryEngine: DeliveryEngine;
    /** Idempotency-Key of the send routes: one answer (and one send) per key, per workspace and admin. */
    idempotency: IdempotencyService;
    /** Automations (Member Join) and schedules. */
    actions: ActionsService;
    /** Threads, posts, mentions, search and summaries. */
    conversations: ConversationsService;
    /** Forms: their instances (sent through delivery), the modal and the responses. */
    forms: FormsService;
    /** Workflows: triggers and chains of delayed messages and forms, each step sent once. */
    workflows: WorkflowsService;
    /** Polls: posted through delivery, voted on with reactions, closed once at their end. */
    polls: PollsService;
    /** The polls jobs (refresh coalesced per poll, close at the end, remove from Slack). */
    pollJobs: PollJobs;
    /** Outbound webhooks: subscriptions, `emit` (what the modules call) and the ordered, signed deliveries. */
    webhooks: WebhooksService;
    /** The audit log: rows written by the hook in app.ts, listed, exported and kept AUDIT_RETENTION_DAYS. */
    audit: AuditService;
    /** Notifications per admin: written where things happen, listed in the top bar, kept 90 days. */
    notifications: NotificationsService;
    /** What forms, polls and workflows call where a thing happens: the outbound webhooks' event and the notifications. */
    emit: Emit;
    /** The weekly digest: subscriptions, the preview, the minute tick that sends it once per admin and week. */
    digest: DigestService;
  };
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

/** The key that seals Slack tokens: SECRETS_KEY, or one generated once into DATA_DIR (embedded use). */
export function secretsKey(config: Config): Buffer {
  if (config.secretsKey) return config.secretsKey;
  const file = path.join(config.dataDir, 'secrets.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

/** The key anonymous polls' voters are hashed with (each poll derives its own from it): from the secrets key. */
export const pollVoterKey = (config: Config): Buffer =>
  crypto.createHmac('sha256', secretsKey(config)).update('flywheel poll voters').digest();

/**
 * `ROLE=migrate`: applies the migrations, the job queue's schema and its queues, then closes the database. A container
 * setup runs it once before the api and worker processes (compose.yml); a process of any other role also does this
 * at start-up (taking turns under the same lock), finding it done.
 */
export async function migrateDatabase(config: Config, logger: Logger): Promise<void> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
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

/** Wiring only: opens the database and queue, builds the services, and lists the modules. */
export async function createContext(
  config: Config,
  opts: { database?: Database; logger?: Logger; pollingIntervalSeconds?: number; modules?: Module[] } = {},
): Promise<AppContext> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const database =
    opts.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') }));
  const modules = opts.modules ?? allModules;
  // Processes started together take turns here: the first applies the migrations, the others find them applied.
  const queue = await database.exclusive(async () => {
    await database.migrate();
    const q = await createQueue(database, logger, { pollingIntervalSeconds: opts.pollingIntervalSeconds });
    await q.register(registeredJobs(modules));
    return q;
  });
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
  const box = secretBox(secretsKey(config));
  const tokens = tokenProvider({
    db,
    box,
    slack,
    logger,
    marginMs: config.slack.tokenRefreshMarginSeconds * 1000,
  });
  const workspaces = workspacesService(db, box, tokens);
  const webhooks = webhooksService({
    db,
    box,
    config: config.webhooks,
    logger: logger.child({ module: 'webhooks' }),
    wake: (ids, at) => wakeWebhooks(queue, ids, at),
  });
  const notifications = notificationsService({ db, logger: logger.child({ module: 'notifications' }) });
  /**
   * What the modules emit where a thing happens goes to the outbound webhooks and to the admins' notifications
   * alike (one emission: both tell the same happenings, with the same de-duplication keys).
   */
  const emit: Emit = async (teamId, type, data, opts) => {
    await webhooks.emit(teamId, type, data, opts);
    await notifications.onEvent(teamId, type, data, opts);
  };
  const tags = tagsService(db);
  const bot = botService({ db, workspaces, slack, publicUrl: config.publicUrl, logger });
  const membersList = membersService({ db, workspaces, tags, querySlices: config.querySlices });
  const buckets = bucketsService({ db, membersList, tags, querySlices: config.querySlices });
  const audience = audienceService({
    db,
    filteredMembers: (teamId, filter) =>
      membersList.memberIds({ ...filter, team_id: teamId, sort: { field: 'activity', direction: 'desc' } }),
    bucketMembers: (teamId, ids) => buckets.audienceMembers(teamId, ids),
  });
  const delivery = deliveryService({
    db,
    audience,
    workspaces,
    bot,
    slack,
    config: config.delivery,
    limits: config.sendLimits,
    logger,
    wake: (teamId) => wakeDelivery(queue, teamId),
  });

  const conversations = conversationsService({
    db,
    delivery,
    slackApiUrl: () => slackConfig.apiUrl,
    llm: llmClient(config.llm),
    summaries: config.summaries,
    logger: logger.child({ module: 'conversations' }),
  });

  const polling = pollJobs(() => queue);
  const metrics = createMetrics({ database, limits: config.sendLimits });

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
    devClock: config.devClock ? { levelsDaysAhead: 0 } : null,
    services: {
      auth: await authService({ db, config, queue, workspaces }),
      workspaces,
      install: installService({
        slack,
        workspaces,
        logger,
        redirectUri: `${config.publicUrl}/installworkspace`,
        onInstalled: (teamId, how) => onWorkspaceInstalled(ctx, teamId, how),
      }),
      events: eventsService({ db, logger, workspaces, listeners: eventListenersOf(modules), ctx: () => ctx }),
      historyImport: backfillService({
        db,
        slack,
        workspaces,
        logger,
        days: config.backfillDays,
        onFinished: (teamId, outcome) => notifications.importFinished(teamId, outcome),
      }),
      bot,
      tags,
      membersList,
      buckets,
      memberDetail: memberService({ db, workspaces, tags }),
      analytics: analyticsService({ db, workspaces }),
      tasks: tasksService(db),
      audience,
      delivery,
      idempotency: idempotencyService({ db, logger }),
      deliveryEngine: deliveryEngine({
        repo: deliveryRepo(db, {
          onFinished: async (finished) => {
            const { team_id, id, created_by: _createdBy, ...receipt } = finished;
            await webhooks.emit(
              team_id,
              'send.finished',
              { receipt_id: id, ...receipt },
              {
                dedupeKey: `send.finished:${id}:${receipt.finished_at}`,
              },
            );
            await notifications.sendFinished(finished);
          },
        }),
        pacing: pacing(db),
        senders: delivery.senderHandle,
        config: config.delivery,
        logger: logger.child({ module: 'delivery' }),
        onOutcome: (teamId, outcome) => metrics.deliveryOutcome(teamId, outcome),
      }),
      actions: actionsService({
        db,
        audience,
        delivery,
        timezoneOf: (teamId, tx) => workspaces.timezone(teamId, tx),
        graceMs: config.actionsGraceMinutes * 60_000,
        logger: logger.child({ module: 'actions' }),
      }),
      conversations,
      forms: formsService({
        db,
        audience,
        delivery,
        workspaces,
        slack,
        timezoneOf: (teamId, tx) => workspaces.timezone(teamId, tx),
        graceMs: config.actionsGraceMinutes * 60_000,
        logger: logger.child({ module: 'forms' }),
        emit,
      }),
      polls: pollsService({
        db,
        audience,
        delivery,
        timezoneOf: (teamId, tx) => workspaces.timezone(teamId, tx),
        jobs: polling,
        logger: logger.child({ module: 'polls' }),
        emit,
        graceMs: config.actionsGraceMinutes * 60_000,
        botClient: async (teamId) => slack.sendingClient(await workspaces.botToken(teamId), 2500),
        voterKey: pollVoterKey(config),
      }),
      pollJobs: polling,
      webhooks,
      audit: auditService({ db, logger, retentionDays: config.auditRetentionDays }),
      notifications,
      emit,
      workflows: workflowsService({
        db,
        audience,
        delivery,
        timezoneOf: (teamId, tx) => workspaces.timezone(teamId, tx),
        wakeAt: (at) => wakeWorkflowSenderAt(queue, at),
        memberCooldownMs: config.workflowMemberCooldownMs,
        logger: logger.child({ module: 'workflows' }),
        emit,
      }),
      digest: digestService({
        db,
        workspaces,
        conversations,
        delivery,
        mailer,
        origin: config.publicUrl,
        logger: logger.child({ module: 'digest' }),
      }),
    },
    modules,
    setSlack: (next) => Object.assign(slackConfig, next),
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
