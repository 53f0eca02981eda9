import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { createScratchDatabase } from '../testing/build-test-app.ts';

// Closing the database is part of every shutdown (a deploy, a test app's close): it must not hang on a connection
// that is never given back.
describe('closing a PostgreSQL database (run on PostgreSQL only: vitest.config.ts)', () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('waits for a connection in use only so long, then warns how many it left', async () => {
    const scratch = await createScratchDatabase();
    drops.push(scratch.drop);
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2, closeWaitMs: 500 });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      // A statement that runs on holds its connection (until the drop below ends its session).
      const running = database.executeSql('select pg_sleep(600)').catch(() => 'ended');
      await database.ping();
      // Without the bound this close never returns (the test times out).
      await database.close();
      await new Promise((r) => setImmediate(r));
      expect(warnings.join('\n')).toMatch(/1 connection\(s\) still in use after 0\.5 s/);
      await scratch.drop();
      expect(await running).toBe('ended');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('closes without a warning when every connection is idle', async () => {
    const scratch = await createScratchDatabase();
    drops.push(scratch.drop);
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2, closeWaitMs: 60_000 });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      await database.ping();
      await database.close();
      await new Promise((r) => setImmediate(r));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
