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
      auditRetentionDays: 365,
    });
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ ROLE: 'boss' }, 'ROLE: must be one of all, api, worker'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a postgres:// URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL: must be an smtp:// or smtps:// URL'],
    [{ PUBLIC_URL: 'localhost' }, 'PUBLIC_URL'],
    [{ DB_QUERY_SLICES: '9' }, 'DB_QUERY_SLICES'],
    [
      { ALLOWED_ORIGINS: 'http://a.example/path' },
      'ALLOWED_ORIGINS: must be a comma-separated list of origins',
    ],
    [{ ALLOWED_ORIGINS: 'a.example' }, 'ALLOWED_ORIGINS'],
    [{ LLM_BASE_URL: 'not a url', LLM_MODEL: 'm' }, 'LLM_BASE_URL: must be an absolute URL'],
    [{ LLM_BASE_URL: 'http://localhost:11434/v1' }, 'LLM_MODEL: required with LLM_BASE_URL'],
    [{ LLM_MODEL: 'llama3.1' }, 'LLM_BASE_URL: required with LLM_MODEL'],
    [{ SLACK_APP_TOKEN: 'xoxb-123-456' }, 'SLACK_APP_TOKEN: must be an app-level token starting with xapp-'],
    [
      { SLACK_CLIENT_ID: '1.2', SLACK_CLIENT_SECRET: 's', SLACK_SIGNING_SECRET: 's', SLACK_SOCKET_MODE: '1' },
      'SLACK_APP_TOKEN: required with SLACK_SOCKET_MODE=1',
    ],
    [{ SLACK_SOCKET_MODE: 'maybe' }, 'SLACK_SOCKET_MODE'],
    [{ AUDIT_RETENTION_DAYS: '0' }, 'AUDIT_RETENTION_DAYS'],
    [{ AUDIT_RETENTION_DAYS: 'forever' }, 'AUDIT_RETENTION_DAYS'],
  ])('a bad value stops start-up naming the variable (%o)', (env, text) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(text);
  });

  it('Socket Mode: on with an app-level token or SLACK_SOCKET_MODE=1 (the demo emulator issues one), else off', () => {
    expect(loadConfig({}).socketMode).toBe(false);
    expect(loadConfig({ SLACK_SOCKET_MODE: '1' }).socketMode).toBe(true);
    const c = loadConfig({ SLACK_APP_TOKEN: 'xapp-1-A1-2-abc' });
    expect(c.socketMode).toBe(true);
    expect(c.slack.appToken).toBe('xapp-1-A1-2-abc');
    expect(loadConfig({ SLACK_APP_TOKEN: 'xapp-1-A1-2-abc', SLACK_SOCKET_MODE: '0' }).socketMode).toBe(false);
  });

  it('links: PUBLIC_URL when set, else the default and ALLOWED_ORIGINS (lib/link-origin.ts)', () => {
    expect(loadConfig({ PORT: '3300' }).links).toEqual({
      publicUrl: undefined,
      fallback: 'http://localhost:3300',
      allowedOrigins: [],
    });
    expect(
      loadConfig({ ALLOWED_ORIGINS: 'http://192.168.1.20:3000/, https://lan.example' }).links.allowedOrigins,
    ).toEqual(['http://192.168.1.20:3000', 'https://lan.example']);
    expect(loadConfig({ PUBLIC_URL: 'https://flywheel.example.com/' }).links.publicUrl).toBe(
      'https://flywheel.example.com',
    );
  });

  it('reads the summaries model: OpenAI by default with a key, any compatible endpoint, none when unset', () => {
    expect(loadConfig({}).llm).toBeUndefined();
    expect(loadConfig({ LLM_API_KEY: 'sk-x', LLM_MODEL: 'gpt-4o-mini' }).llm).toMatchObject({
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
    });
    expect(loadConfig({ LLM_BASE_URL: 'http://localhost:11434/v1/', LLM_MODEL: 'llama3.1' }).llm).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: undefined,
      model: 'llama3.1',
      timeoutMs: 60_000,
    });
  });

  it('turns the development outbox off with SMTP or in production', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).devOutbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).devOutbox).toBe(false);
    // Any other value starts, as production (never the outbox that shows every mailed link).
    expect(loadConfig({ NODE_ENV: 'staging' }).nodeEnv).toBe('production');
    expect(loadConfig({ NODE_ENV: 'staging' }).devOutbox).toBe(false);
    expect(loadConfig({ NODE_ENV: '' }).nodeEnv).toBe('development');
  });

  it('ranks heavy Members pages in 2 slices on PostgreSQL by default, in 1 on PGlite', () => {
    const pg = 'postgres://u@127.0.0.1:5432/x';
    expect(loadConfig({}).querySlices).toBe(1);
    expect(loadConfig({ DB_QUERY_SLICES: '4' }).querySlices).toBe(1);
    expect(loadConfig({ DATABASE_URL: pg }).querySlices).toBe(2);
    expect(loadConfig({ DATABASE_URL: pg, DB_QUERY_SLICES: '4' }).querySlices).toBe(4);
  });
});
