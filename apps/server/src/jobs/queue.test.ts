import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../lib/logger.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { createQueue, defineJob, startDelayMs } from './queue.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { workers: false });
});
afterAll(() => t.close());

describe('job queue (pg-boss on this database)', () => {
  it('runs a typed job, refuses a bad payload, and lets a running job finish on a graceful stop', async () => {
    const events: string[] = [];
    const slow = defineJob({
      id: 'test.slow',
      payload: z.object({ n: z.number().int() }),
      retryLimit: 0,
      async handle(data, { stopping }) {
        events.push(`start ${data.n}`);
        await new Promise((r) => setTimeout(r, 800));
        // The stop came while it ran: its signal says so, so a long handler can end early.
        events.push(`end ${data.n}${stopping.aborted ? ' (stopping)' : ''}`);
      },
    });
    const queue = await createQueue(t.ctx.database, t.ctx.logger, { pollingIntervalSeconds: 0.5 });
    await queue.register([slow]);
    await queue.startWorkers(t.ctx);

    await expect(queue.send(slow, { n: 'x' } as never)).rejects.toThrow();
    await queue.send(slow, { n: 1 });
    for (let i = 0; i < 100 && !events.includes('start 1'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual(['start 1']);

    await queue.stop();
    expect(events).toEqual(['start 1', 'end 1 (stopping)']);
    expect(queue.state().started).toBe(false);
    const { rows } = await t.ctx.database.executeSql("select state from pgboss.job where name = 'test.slow'");
    expect(rows).toEqual([{ state: 'completed' }]);
  });

  it('a job sent to start later wakes a local worker at its time, not at the worker’s next poll', async () => {
    const ran: { n: number; at: number }[] = [];
    const later = defineJob({
      id: 'test.later',
      payload: z.object({ n: z.number().int() }),
      retryLimit: 0,
      async handle(data) {
        ran.push({ n: data.n, at: Date.now() });
      },
    });
    // A poll a minute apart: a job that ran before a minute was woken.
    const queue = await createQueue(t.ctx.database, t.ctx.logger, { pollingIntervalSeconds: 60 });
    await queue.register([later]);
    await queue.startWorkers(t.ctx);
    // The worker's first fetch (right after it starts) is over before the sends.
    await new Promise((r) => setTimeout(r, 1_000));
    const sentAt = Date.now();
    await queue.send(later, { n: 1 });
    await queue.send(later, { n: 2 }, { startAfter: 2 });
    await queue.send(later, { n: 3 }, { startAfter: new Date(Date.now() + 3_000) });
    for (let i = 0; i < 400 && ran.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    await queue.stop();
    expect(ran.map((r) => r.n)).toEqual([1, 2, 3]);
    // Not before their time (the database's start_after holds them).
    expect(ran[1]!.at - sentAt).toBeGreaterThanOrEqual(1_900);
    expect(ran[2]!.at - sentAt).toBeGreaterThanOrEqual(2_900);
  });

  it('a job due that no local send woke (another process sent it) is found by the sweep, not the 30 s poll', async () => {
    const ran: string[] = [];
    const elsewhere = defineJob({
      id: 'test.elsewhere',
      payload: z.object({ n: z.number().int() }),
      retryLimit: 0,
      async handle(data) {
        ran.push(`ran ${data.n}`);
      },
    });
    // The sweep every 0.5 s; each worker polls its own queue every 30 s.
    const queue = await createQueue(t.ctx.database, t.ctx.logger, { pollingIntervalSeconds: 0.5 });
    await queue.register([elsewhere]);
    await queue.startWorkers(t.ctx);
    // The worker's first fetch (right after it starts) is over before the send.
    await new Promise((r) => setTimeout(r, 1_000));
    // Straight into pg-boss, as another process's send arrives: nothing here wakes the worker.
    await queue.boss.send('test.elsewhere', { n: 1 });
    // Well before the worker's own 30 s poll (the wait's bound, not a speed check).
    for (let i = 0; i < 300 && ran.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await queue.stop();
    expect(ran).toEqual(['ran 1']);
  });

  it('startDelayMs reads seconds, dates and ISO strings', () => {
    expect(startDelayMs(undefined)).toBe(0);
    expect(startDelayMs(20)).toBe(20_000);
    const d = startDelayMs(new Date(Date.now() + 5_000));
    expect(d).toBeGreaterThan(4_000);
    expect(d).toBeLessThanOrEqual(5_000);
    expect(startDelayMs(new Date(Date.now() - 5_000).toISOString())).toBeLessThan(0);
    expect(startDelayMs('not a date')).toBe(0);
  });

  it('stop waits for the completion pg-boss sends without awaiting it, so the database can close right after', async () => {
    // The completion query takes a while: stop() must not return before it has.
    let completions = 0;
    const slowDb = {
      ...t.ctx.database,
      executeSql: async (text: string, values?: unknown[]) => {
        if (/state = 'completed'|'completed'::/i.test(text) && /^\s*(with|update)/i.test(text)) {
          await new Promise((r) => setTimeout(r, 600));
          const r = await t.ctx.database.executeSql(text, values);
          completions++;
          return r;
        }
        return t.ctx.database.executeSql(text, values);
      },
    };
    let ran = false;
    const quick = defineJob({
      id: 'test.quick',
      payload: z.object({}),
      retryLimit: 0,
      async handle() {
        ran = true;
      },
    });
    const queue = await createQueue(slowDb, t.ctx.logger, { pollingIntervalSeconds: 0.5 });
    await queue.register([quick]);
    await queue.startWorkers(t.ctx);
    await queue.send(quick, {});
    for (let i = 0; i < 100 && !ran; i++) await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(true);
    await queue.stop();
    expect(completions).toBe(1);
    const { rows } = await t.ctx.database.executeSql(
      "select state from pgboss.job where name = 'test.quick'",
    );
    expect(rows).toEqual([{ state: 'completed' }]);
  });

  it('a failing handler is logged with its job and error (pg-boss itself only records it in the row)', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    let tries = 0;
    const failing = defineJob({
      id: 'test.failing',
      payload: z.object({}),
      retryLimit: 0,
      async handle() {
        tries++;
        throw new Error('the handler broke');
      },
    });
    const queue = await createQueue(t.ctx.database, createLogger('info', stream), {
      pollingIntervalSeconds: 0.5,
    });
    try {
      await queue.register([failing]);
      await queue.startWorkers(t.ctx);
      await queue.send(failing, {});
      let state: unknown;
      for (let i = 0; i < 200 && state !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const { rows } = await t.ctx.database.executeSql(
          "select state from pgboss.job where name = 'test.failing'",
        );
        state = (rows[0] as { state?: string } | undefined)?.state;
      }
      expect(state).toBe('failed');
      expect(tries).toBe(1);
      const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.job === 'test.failing');
      expect(logged).toEqual([
        expect.objectContaining({
          level: 50,
          msg: expect.stringMatching(/^job failed/),
          err: expect.objectContaining({ message: 'the handler broke' }),
        }),
      ]);
    } finally {
      await queue.stop();
    }
  });

  it('a handler that outlives the stop reports to a closed database without an unhandled rejection', async () => {
    let open = true;
    const closingDb = {
      ...t.ctx.database,
      executeSql: async (text: string, values?: unknown[]) => {
        if (!open) throw new Error('Cannot use a pool after calling end on the pool');
        return t.ctx.database.executeSql(text, values);
      },
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    let started = false;
    const long = defineJob({
      id: 'test.outlives',
      payload: z.object({}),
      retryLimit: 0,
      async handle() {
        started = true;
        await new Promise((r) => setTimeout(r, 1800));
        throw new Error('the database went away');
      },
    });
    const queue = await createQueue(closingDb, t.ctx.logger, {
      pollingIntervalSeconds: 0.5,
      stopTimeoutMs: 1000,
    });
    try {
      await queue.register([long]);
      await queue.startWorkers(t.ctx);
      await queue.send(long, {});
      for (let i = 0; i < 100 && !started; i++) await new Promise((r) => setTimeout(r, 20));
      expect(started).toBe(true);
      await queue.stop(); // gives up waiting after 1 s; the handler is still running
      open = false; // the owner closes its database
      await new Promise((r) => setTimeout(r, 1500)); // the handler fails, pg-boss reports it
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
