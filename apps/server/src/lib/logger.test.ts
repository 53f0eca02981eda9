import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { processLogger } from './logger.ts';

function capture() {
  let out = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  return { stream, text: () => out };
}

describe('the process logger', () => {
  it('pretty: readable lines, not JSON, with secrets still redacted', () => {
    const c = capture();
    const logger = processLogger('info', 'pretty', c.stream);
    logger.info({ token: 'xoxb-secret-token', teamId: 'T1' }, 'workspace connected');
    expect(c.text()).toContain('workspace connected');
    expect(c.text()).toContain('INFO');
    expect(c.text()).toContain('[redacted]');
    expect(c.text()).not.toContain('xoxb-secret-token');
    expect(() => JSON.parse(c.text())).toThrow();
  });

  it('json: one JSON object per line, secrets redacted', () => {
    const c = capture();
    const logger = processLogger('info', 'json', c.stream);
    logger.info({ token: 'xoxb-secret-token' }, 'workspace connected');
    const line = JSON.parse(c.text().trim());
    expect(line).toMatchObject({ msg: 'workspace connected', token: '[redacted]' });
  });

  it('LOG_FORMAT picks the format; unset, production and a non-terminal write JSON; a bad value names the field', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'production' }).logFormat).toBe('json');
    // Tests run with their output piped, not on a terminal.
    expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe(process.stdout.isTTY ? 'pretty' : 'json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT: must be json or pretty/);
  });
});
