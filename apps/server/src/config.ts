import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { LinkOriginPolicy } from './lib/link-origin.ts';
import type { SendLimits } from './modules/delivery/limits.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** Every environment variable the server reads. `.env.example` lists the same set. */
const envSchema = z.object({
  // Any other value (staging, prod ...) is production: the strict behaviour, never the development outbox.
  NODE_ENV: z
    .string()
    .optional()
    .transform((v): 'development' | 'production' | 'test' =>
      v === undefined || v.trim() === '' || v === 'development'
        ? 'development'
        : v === 'test'
          ? 'test'
          : 'production',
    ),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: optionalString.pipe(
    z.url({ error: 'must be an absolute URL like https://flywheel.example.com' }).optional(),
  ),
  /** Comma-separated origins links may return to when PUBLIC_URL is unset (besides loopback addresses). */
  ALLOWED_ORIGINS: optionalString.pipe(
    z
      .string()
      .refine(
        (v) =>
          v
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean)
            .every((o) => /^https?:\/\/[^/\s]+$/.test(o.replace(/\/$/, ''))),
        'must be a comma-separated list of origins like http://192.168.1.20:3000',
      )
      .optional(),
  ),
  ROLE: z
    .enum(['all', 'api', 'worker', 'migrate'], { error: 'must be one of all, api, worker, migrate' })
    .default('all'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, 'data')),
  DB_QUERY_SLICES: z.coerce.number().int().min(1).max(8).optional(),
  HEALTH_DB_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  // GET /metrics (Prometheus) answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset, it is off (404).
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // pretty: one readable, coloured line per entry (pino-pretty); json: pino's lines, for log collectors. Unset: pretty
  // in development when the output is a terminal, json otherwise.
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional(),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  REMEMBER_ME_TTL_DAYS: z.coerce.number().positive().max(365).default(30),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default('Flywheel <no-reply@flywheel.local>'),
  DEV_OUTBOX: optionalString.pipe(bool.optional()),
  DEV_CLOCK: optionalString.pipe(bool.optional()),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  LOGIN_MAX_PER_EMAIL: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_PER_IP: z.coerce.number().int().positive().default(50),
  MAIL_WINDOW_MINUTES: z.coerce.number().int().positive().default(60),
  MAIL_MAX_PER_ADDRESS: z.coerce.number().int().positive().default(5),
  MAIL_MAX_PER_CLIENT: z.coerce.number().int().positive().default(20),
  WEB_DIST: z.string().default(path.join(REPO_ROOT, 'apps/web/dist')),
  TRUST_PROXY: optionalString.pipe(bool.optional()),
  SECRETS_KEY: optionalString.pipe(
    z
      .string()
      .refine(
        (v) => Buffer.from(v, 'base64').length === 32,
        'must be 32 bytes, base64-encoded (openssl rand -base64 32)',
      )
      .optional(),
  ),
  SLACK_CLIENT_ID: optionalString,
  SLACK_CLIENT_SECRET: optionalString,
  SLACK_SIGNING_SECRET: optionalString,
  // Socket Mode: an app-level token (Basic Information > App-Level Tokens, scope connections:write).
  SLACK_APP_TOKEN: optionalString.pipe(
    z
      .string()
      .startsWith('xapp-', {
        error:
          'must be an app-level token starting with xapp- (Basic Information > App-Level Tokens, scope connections:write), not a bot (xoxb-) or user (xoxp-) token',
      })
      .optional(),
  ),
  SLACK_SOCKET_MODE: optionalString.pipe(bool.optional()),
  SLACK_API_URL: z
    .url({ error: 'must be an absolute URL ending in /api/' })
    .default('https://slack.com/api/'),
  SLACK_AUTHORIZE_URL: z
    .url({ error: 'must be an absolute URL' })
    .default('https://slack.com/oauth/v2/authorize'),
  SLACK_RATE_SCALE: z.coerce.number().positive().max(100_000).default(1),
  SLACK_HISTORY_LIMITED: optionalString.pipe(bool.optional()),
  /** Token rotation: how long before a rotating token expires it is renewed. */
  SLACK_TOKEN_REFRESH_MARGIN_SECONDS: z.coerce
    .number()
    .min(0)
    .max(6 * 3600)
    .default(300),
  BACKFILL_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How long the audit log keeps its rows (a daily job deletes older ones). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  DELIVERY_POSTS_PER_MINUTE: z.coerce.number().positive().max(10_000).default(200),
  DELIVERY_CHANNEL_POSTS_PER_MINUTE: z.coerce.number().positive().max(10_000).default(60),
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  DELIVERY_WORKSPACES_PER_WORKER: z.coerce.number().int().min(1).max(64).default(4),
  SEND_DAILY_BUDGET: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,9}$/, 'must be a whole number of messages (0 = no budget)')
      .transform(Number)
      .optional(),
  ),
  SEND_DAILY_BUDGET_PER_MEMBER: z.coerce.number().positive().max(1000).default(3),
  SEND_DAILY_BUDGET_MIN: z.coerce.number().int().min(0).max(100_000_000).default(1000),
  SEND_CONFIRM_OVER: z.coerce.number().int().min(0).max(10_000_000).default(100),
  WORKFLOW_MEMBER_COOLDOWN_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
  ACTIONS_MISSED_RUN_GRACE_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  DELIVERY_RETRY_BASE_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: optionalString.pipe(bool.optional()),
  WEBHOOKS_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  DELIVERY_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(30, 'must be at least 30 (a Slack call may take 20 s, a channel slot 5 s)')
    .max(3600)
    .default(60),
  LLM_BASE_URL: optionalString.pipe(
    z
      .url({ error: 'must be an absolute URL like https://api.openai.com/v1 or http://localhost:11434/v1' })
      .optional(),
  ),
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  SUMMARY_MAX_PER_ADMIN_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  SUMMARY_MAX_CHARS: z.coerce.number().int().min(200).max(100_000).default(4000),
  UPLOAD_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(16),
  UPLOAD_TMP_DIR: optionalString,
  DEMO_EMAIL: z.email({ error: 'must be an email address' }).default('demo@flywheel.local'),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('flywheel-demo'),
  DEMO_EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(3999),
  DEMO_MEMBERS: z.coerce.number().int().min(10).max(50_000).default(500),
  DEMO_CHANNELS: z.coerce.number().int().min(2).max(500).default(20),
  DEMO_DAYS: z.coerce.number().int().min(1).max(365).default(120),
  DEMO_LIVE_INTERVAL_MS: z.coerce.number().int().min(0).default(4000),
});
/** The names of every variable the server reads (the configuration page and `.env.example` list each). */
export const ENV_VARIABLES = Object.keys(envSchema.shape);

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  /**
   * Where links lead back to (the Slack redirect, e-mailed links): PUBLIC_URL when set, else the origin the
   * user is on when it is loopback or in ALLOWED_ORIGINS, else publicUrl (lib/link-origin.ts).
   */
  links: LinkOriginPolicy;
  role: 'all' | 'api' | 'worker' | 'migrate';
  /** How long /api/health (and the supervisor's watchdog) waits for a trivial query before the database is down. */
  healthDbTimeoutMs: number;
  /** The bearer token of GET /metrics; undefined: metrics are off. */
  metricsToken: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
  /**
   * How many slices of a workspace's members a heavy Members page is ranked in at once, each on its own
   * PostgreSQL connection (the database's cores it may use for one request). PGlite always uses 1.
   */
  querySlices: number;
  logLevel: string;
  /** How log lines are written: pino's JSON, or pino-pretty's readable lines (development on a terminal). */
  logFormat: 'json' | 'pretty';
  jwtSecret: string | undefined;
  tokenTtlHours: number;
  rememberMeTtlDays: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The development outbox (stored mail readable at /api/dev/outbox): on when no SMTP is set and not in production. */
  devOutbox: boolean;
  /**
   * The test clock (lib/dev-clock.ts: POST /api/dev/clock moves the day engagement levels are computed for), for
   * the end-to-end suite: off unless DEV_CLOCK is set, and refused in production.
   */
  devClock: boolean;
  login: { windowMinutes: number; maxPerEmail: number; maxPerIp: number };
  /** E-mails sent on request (signup, reset, verification) per recipient and per client address. */
  mailLimits: { windowMinutes: number; maxPerAddress: number; maxPerClient: number };
  webDist: string;
  trustProxy: boolean;
  /** 32-byte key for Slack tokens at rest; unset = a key file under DATA_DIR (embedded use only). */
  secretsKey: Buffer | undefined;
  slack: {
    clientId: string;
    clientSecret: string;
    signingSecret: string;
    apiUrl: string;
    authorizeUrl: string;
    /** Multiplies Slack's published rate tiers when pacing (1 = Slack's figures; the demo's emulator runs faster). */
    rateScale: number;
    /** conversations.history/replies at 1 per minute and 15 per page (Slack apps outside the Marketplace). */
    historyLimited: boolean;
    /** Token rotation: a rotating token is renewed this long before it expires. */
    tokenRefreshMarginSeconds: number;
    /** The app-level token (xapp-…) Socket Mode connects with; the demo sets its emulator's. */
    appToken: string | undefined;
  };
  /**
   * Events and interactivity over Socket Mode (worker processes hold the connection) instead of the /slack
   * Request URLs: on with SLACK_APP_TOKEN, or SLACK_SOCKET_MODE=1 in demo mode (the emulator issues the token).
   */
  socketMode: boolean;
  backfillDays: number;
  /** Days the audit log keeps a row (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** A schedule's run sent later than this after its time (the product was down) is recorded as skipped. */
  actionsGraceMinutes: number;
  /** What one workspace may send: the daily budget and when a send must name its count (delivery/limits.ts). */
  sendLimits: SendLimits;
  /** A workflow's step reaches a member at most once in this many ms (0 = no limit). */
  workflowMemberCooldownMs: number;
  /** Outbound webhooks (modules/webhooks). */
  webhooks: {
    /** http targets and private, loopback or link-local addresses allowed (a local receiver in tests). */
    allowPrivateTargets: boolean;
    /** The first retry's delay; each further try doubles it (at most an hour), for up to a day. */
    retryBaseMs: number;
    /** One request's limit, connection to last byte. */
    timeoutMs: number;
  };
  /** The delivery engine's budget and patience (see modules/delivery/engine.ts). */
  delivery: {
    postsPerMinute: number;
    channelPostsPerMinute: number;
    historyPerMinute: number;
    maxAttempts: number;
    /** The first retry's delay; each further try doubles it (at most 5 minutes), with jitter. */
    retryBaseMs: number;
    leaseSeconds: number;
    maxPaceWaitMs: number;
    /** chat.update and chat.delete per workspace (Slack: Tier 3, about 50 a minute). */
    updatesPerMinute: number;
    /** Workspaces one worker process sends for at once (delivery.send jobs running side by side). */
    workspacesPerWorker: number;
  };
  /**
   * The model thread summaries ask: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
   * ...). Undefined: summaries are extractive. The key is never logged nor sent to the browser.
   */
  llm: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number } | undefined;
  /** Thread summaries: model calls one admin may start a minute (this process), and the longest answer kept. */
  summaries: { perAdminPerMinute: number; maxChars: number };
  /**
   * Image uploads: how many this process takes at once (more are answered 503 with Retry-After, their bodies
   * never read), and where each is written while it is checked and sent to Slack (deleted after).
   */
  uploads: { maxConcurrent: number; tmpDir: string };
  /** With no Slack app configured the server runs the bundled emulator with a demo workspace. */
  demo: {
    enabled: boolean;
    email: string;
    password: string;
    emulatorPort: number;
    members: number;
    channels: number;
    days: number;
    liveIntervalMs: number;
  };
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.SLACK_CLIENT_ID && (!e.SLACK_CLIENT_SECRET || !e.SLACK_SIGNING_SECRET)) {
    throw new ConfigError(
      "Invalid configuration:\n  SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET: required with SLACK_CLIENT_ID (from your Slack app's Basic Information page)",
    );
  }
  if (e.SLACK_SOCKET_MODE && !e.SLACK_APP_TOKEN && e.SLACK_CLIENT_ID) {
    throw new ConfigError(
      'Invalid configuration:\n  SLACK_APP_TOKEN: required with SLACK_SOCKET_MODE=1 (an app-level token, xapp-…, with connections:write)',
    );
  }
  if (e.DEV_OUTBOX && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  DEV_OUTBOX: cannot be on in production (it shows every e-mailed link); configure SMTP_URL',
    );
  }
  if (e.DEV_CLOCK && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  DEV_CLOCK: cannot be on in production (it moves the day engagement levels are computed for; the end-to-end tests use it)',
    );
  }
  if (e.DATABASE_URL && !e.SECRETS_KEY && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  SECRETS_KEY: required with DATABASE_URL in production (openssl rand -base64 32)',
    );
  }
  if ((e.LLM_BASE_URL || e.LLM_API_KEY) && !e.LLM_MODEL) {
    throw new ConfigError(
      'Invalid configuration:\n  LLM_MODEL: required with LLM_BASE_URL or LLM_API_KEY (e.g. gpt-4o-mini, or llama3.1 on Ollama)',
    );
  }
  if (e.LLM_MODEL && !e.LLM_BASE_URL && !e.LLM_API_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  LLM_BASE_URL: required with LLM_MODEL (an OpenAI-compatible endpoint), or set LLM_API_KEY for OpenAI',
    );
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    links: {
      publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
      fallback: `http://localhost:${e.PORT}`,
      allowedOrigins: (e.ALLOWED_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim().replace(/\/$/, ''))
        .filter(Boolean)
        .map((o) => new URL(o).origin),
    },
    role: e.ROLE,
    healthDbTimeoutMs: e.HEALTH_DB_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    querySlices: e.DATABASE_URL ? (e.DB_QUERY_SLICES ?? 2) : 1,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'development' && process.stdout.isTTY ? 'pretty' : 'json'),
    jwtSecret: e.JWT_SECRET,
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    rememberMeTtlDays: e.REMEMBER_ME_TTL_DAYS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    devOutbox: e.DEV_OUTBOX ?? (!e.SMTP_URL && e.NODE_ENV !== 'production'),
    devClock: e.DEV_CLOCK ?? false,
    login: {
      windowMinutes: e.LOGIN_WINDOW_MINUTES,
      maxPerEmail: e.LOGIN_MAX_PER_EMAIL,
      maxPerIp: e.LOGIN_MAX_PER_IP,
    },
    mailLimits: {
      windowMinutes: e.MAIL_WINDOW_MINUTES,
      maxPerAddress: e.MAIL_MAX_PER_ADDRESS,
      maxPerClient: e.MAIL_MAX_PER_CLIENT,
    },
    webDist: path.resolve(e.WEB_DIST),
    trustProxy: e.TRUST_PROXY ?? false,
    secretsKey: e.SECRETS_KEY ? Buffer.from(e.SECRETS_KEY, 'base64') : undefined,
    slack: {
      clientId: e.SLACK_CLIENT_ID ?? '',
      clientSecret: e.SLACK_CLIENT_SECRET ?? '',
      signingSecret: e.SLACK_SIGNING_SECRET ?? '',
      apiUrl: e.SLACK_API_URL.endsWith('/') ? e.SLACK_API_URL : `${e.SLACK_API_URL}/`,
      authorizeUrl: e.SLACK_AUTHORIZE_URL,
      rateScale: e.SLACK_RATE_SCALE,
      historyLimited: e.SLACK_HISTORY_LIMITED ?? false,
      tokenRefreshMarginSeconds: e.SLACK_TOKEN_REFRESH_MARGIN_SECONDS,
      appToken: e.SLACK_APP_TOKEN,
    },
    socketMode: e.SLACK_SOCKET_MODE ?? Boolean(e.SLACK_APP_TOKEN),
    backfillDays: e.BACKFILL_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    actionsGraceMinutes: e.ACTIONS_MISSED_RUN_GRACE_MINUTES,
    sendLimits: {
      dailyBudget: e.SEND_DAILY_BUDGET ?? null,
      perMember: e.SEND_DAILY_BUDGET_PER_MEMBER,
      minimum: e.SEND_DAILY_BUDGET_MIN,
      confirmOver: e.SEND_CONFIRM_OVER,
    },
    workflowMemberCooldownMs: Math.round(e.WORKFLOW_MEMBER_COOLDOWN_HOURS * 3_600_000),
    webhooks: {
      allowPrivateTargets: e.WEBHOOKS_ALLOW_PRIVATE_TARGETS ?? false,
      retryBaseMs: e.WEBHOOKS_RETRY_BASE_MS,
      timeoutMs: e.WEBHOOKS_TIMEOUT_MS,
    },
    // Pacing follows Slack's figures times SLACK_RATE_SCALE (the emulator's time scale in tests and benches).
    delivery: {
      postsPerMinute: e.DELIVERY_POSTS_PER_MINUTE * e.SLACK_RATE_SCALE,
      channelPostsPerMinute: e.DELIVERY_CHANNEL_POSTS_PER_MINUTE * e.SLACK_RATE_SCALE,
      historyPerMinute: (e.SLACK_HISTORY_LIMITED ? 1 : 50) * e.SLACK_RATE_SCALE,
      maxAttempts: e.DELIVERY_MAX_ATTEMPTS,
      retryBaseMs: e.DELIVERY_RETRY_BASE_MS,
      leaseSeconds: e.DELIVERY_LEASE_SECONDS,
      maxPaceWaitMs: 15_000,
      updatesPerMinute: 50 * e.SLACK_RATE_SCALE,
      workspacesPerWorker: e.DELIVERY_WORKSPACES_PER_WORKER,
    },
    llm: e.LLM_MODEL
      ? {
          baseUrl: (e.LLM_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/$/, ''),
          apiKey: e.LLM_API_KEY,
          model: e.LLM_MODEL,
          timeoutMs: e.LLM_TIMEOUT_MS,
        }
      : undefined,
    summaries: {
      perAdminPerMinute: e.SUMMARY_MAX_PER_ADMIN_PER_MINUTE,
      maxChars: e.SUMMARY_MAX_CHARS,
    },
    uploads: {
      maxConcurrent: e.UPLOAD_MAX_CONCURRENT,
      tmpDir: path.resolve(e.UPLOAD_TMP_DIR ?? os.tmpdir()),
    },
    demo: {
      enabled: !e.SLACK_CLIENT_ID,
      email: e.DEMO_EMAIL.toLowerCase(),
      password: e.DEMO_PASSWORD,
      emulatorPort: e.DEMO_EMULATOR_PORT,
      members: e.DEMO_MEMBERS,
      channels: e.DEMO_CHANNELS,
      days: e.DEMO_DAYS,
      liveIntervalMs: e.DEMO_LIVE_INTERVAL_MS,
    },
  };
}
