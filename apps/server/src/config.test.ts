import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has embedded defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      role: 'all',
      databaseUrl: undefined,
      devOutbox: true,
      publicUrl: 'http://localhost:3000',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ ROLE: 'boss' }, 'ROLE: must be one of all, api, worker'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a postgres:// URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL: must be an smtp:// or smtps:// URL'],
    [{ PUBLIC_URL: 'localhost' }, 'PUBLIC_URL'],
  ])('a bad value stops start-up naming the variable (%o)', (env, text) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(text);
  });

  it('turns the development outbox off with SMTP or in production', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).devOutbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).devOutbox).toBe(false);
  });
});
