import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { firstRow } from './sql.ts';
import { OpenTransactionError } from './tx-guard.ts';

describe('a statement through the database inside one of its transactions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
  });
  afterAll(() => t?.close());

  /** Drizzle wraps a failed statement's error: the guard's is its cause. */
  const guarded = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    const cause = err instanceof OpenTransactionError ? err : (err as { cause?: unknown } | undefined)?.cause;
    expect(cause).toBeInstanceOf(OpenTransactionError);
    expect(String((cause as Error).message)).toMatch(/use the transaction handle \(tx\)/);
  };

  const one = async (runner: Pick<typeof t.ctx.database.db, 'execute'>) =>
    (await firstRow<{ n: number }>(runner, sql`select 1 as n`))!.n;

  it('is an error where it is made (on PGlite it would wait for itself forever), and the transaction rolls back', async () => {
    const db = t.ctx.database.db;
    await db.execute(sql`create table if not exists tx_guard_probe (n int)`);
    const attempt = db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_guard_probe values (1)`);
      // Deep inside the body, as a service reading through the pool would be.
      await Promise.resolve().then(() => one(db));
    });
    await guarded(attempt);
    expect((await firstRow<{ n: number }>(db, sql`select count(*)::int as n from tx_guard_probe`))!.n).toBe(
      0,
    );
  });

  it('covers a nested db.transaction and the job queue, which reads through the same database', async () => {
    const db = t.ctx.database.db;
    await guarded(db.transaction(async () => db.transaction(async (tx2) => one(tx2))));
    await guarded(db.transaction(async () => t.ctx.database.executeSql('select 1')));
  });

  it('lets the transaction handle, savepoints, other requests and work left running after the commit through', async () => {
    const db = t.ctx.database.db;
    let later: Promise<number> | undefined;
    const [inside, other] = await Promise.all([
      db.transaction(async (tx) => {
        const n = await one(tx);
        const m = await tx.transaction(async (sp) => one(sp));
        // Started inside, runs on after the commit: by then the database is free.
        later = new Promise((r) => setTimeout(r, 20)).then(() => one(db));
        return n + m;
      }),
      // Another request's statement, in its own async context, waits for the transaction as usual.
      one(db),
    ]);
    expect(inside).toBe(2);
    expect(other).toBe(1);
    await expect(later).resolves.toBe(1);
  });
});
