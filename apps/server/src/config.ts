import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

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
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: optionalString.pipe(
    z.url({ error: 'must be an absolute URL like https://flywheel.example.com' }).optional(),
  ),
  ROLE: z.enum(['all', 'api', 'worker'], { error: 'must be one of all, api, worker' }).default('all'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, 'data')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  LOGIN_MAX_PER_EMAIL: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_PER_IP: z.coerce.number().int().positive().default(50),
  WEB_DIST: z.string().default(path.join(REPO_ROOT, 'apps/web/dist')),
  TRUST_PROXY: optionalString.pipe(bool.optional()),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  role: 'all' | 'api' | 'worker';
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  jwtSecret: string | undefined;
  tokenTtlHours: number;
  rememberMeTtlDays: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The development outbox (stored mail readable at /api/dev/outbox): on when no SMTP is set and not in production. */
  devOutbox: boolean;
  login: { windowMinutes: number; maxPerEmail: number; maxPerIp: number };
  webDist: string;
  trustProxy: boolean;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    role: e.ROLE,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    jwtSecret: e.JWT_SECRET,
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    rememberMeTtlDays: e.REMEMBER_ME_TTL_DAYS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    devOutbox: e.DEV_OUTBOX ?? (!e.SMTP_URL && e.NODE_ENV !== 'production'),
    login: {
      windowMinutes: e.LOGIN_WINDOW_MINUTES,
      maxPerEmail: e.LOGIN_MAX_PER_EMAIL,
      maxPerIp: e.LOGIN_MAX_PER_IP,
    },
    webDist: path.resolve(e.WEB_DIST),
    trustProxy: e.TRUST_PROXY ?? false,
  };
}
