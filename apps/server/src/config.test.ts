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
    [{ DB_QUERY_SLICES: '9' }, 'DB_QUERY_SLICES'],
  ])('a bad value stops start-up naming the variable (%o)', (env, text) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(text);
  });

  it('turns the development outbox off with SMTP or in production', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).devOutbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).devOutbox).toBe(false);
  });

  it('ranks heavy Members pages in 2 slices on PostgreSQL by default, in 1 on PGlite', () => {
    const pg = 'postgres://u@127.0.0.1:5432/x';
    expect(loadConfig({}).querySlices).toBe(1);
    expect(loadConfig({ DB_QUERY_SLICES: '4' }).querySlices).toBe(1);
    expect(loadConfig({ DATABASE_URL: pg }).querySlices).toBe(2);
    expect(loadConfig({ DATABASE_URL: pg, DB_QUERY_SLICES: '4' }).querySlices).toBe(4);
  });
});
