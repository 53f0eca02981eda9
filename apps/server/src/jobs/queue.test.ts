import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { createQueue, defineJob } from './queue.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { workers: false });
});
afterAll(() => t.close());

describe('job queue (pg-boss on this database)', () => {
  it('runs a typed job, refuses a bad payload, and lets a running job finish on a graceful stop', async () => {
    const events: string[] = [];
    const slow = defineJob({
      name: 'test.slow',
      payload: z.object({ n: z.number().int() }),
      retryLimit: 0,
      async handle(data) {
        events.push(`start ${data.n}`);
        await new Promise((r) => setTimeout(r, 800));
        events.push(`end ${data.n}`);
      },
    });
    const queue = await createQueue(t.ctx.database, t.ctx.logger, { pollingIntervalSeconds: 0.5 });
    await queue.register([slow]);
    await queue.startWorkers();

    await expect(queue.send(slow, { n: 'x' } as never)).rejects.toThrow();
    await queue.send(slow, { n: 1 });
    for (let i = 0; i < 100 && !events.includes('start 1'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual(['start 1']);

    await queue.stop();
    expect(events).toEqual(['start 1', 'end 1']);
    expect(queue.state().started).toBe(false);
    const { rows } = await t.ctx.database.executeSql("select state from pgboss.job where name = 'test.slow'");
    expect(rows).toEqual([{ state: 'completed' }]);
  });
});
