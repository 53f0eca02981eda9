import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The one rule of transactions here: inside `db.transaction(async (tx) => …)` every statement goes through `tx`.
 * A statement through the database itself (the pool, a service built on it, the job queue) while the transaction
 * is open is a mistake on either database: on PGlite, which has one connection, it waits for the transaction that
 * waits for it, and the process hangs for good; on PostgreSQL it runs outside the transaction (it cannot see its
 * writes, and takes a second connection). The guard makes that mistake an error where it is made, on both.
 *
 * How: the body of a transaction runs with its database marked open in an AsyncLocalStorage, so everything the
 * body awaits (however deep) sees the mark; the database's own entry points (query, exec, transaction, connect)
 * throw while it is set. Work started by the body that runs on after the transaction has ended sees the mark
 * cleared. Other requests' statements, in their own async contexts, never see it: they wait for the transaction
 * as usual.
 */

export class OpenTransactionError extends Error {
  constructor(what: string) {
    super(
      `${what} through the database while this code holds one of its transactions open: use the transaction ` +
        `handle (tx) for every statement inside db.transaction(...) (on PGlite this would wait for itself forever)`,
    );
    this.name = 'OpenTransactionError';
  }
}

type Mark = { owner: object; open: boolean };

const marks = new AsyncLocalStorage<Mark>();

/** Runs a transaction's body with `owner` (one database) marked open until the body settles. */
export async function inTransactionBody<T>(owner: object, body: () => Promise<T>): Promise<T> {
  const mark: Mark = { owner, open: true };
  return marks.run(mark, async () => {
    try {
      return await body();
    } finally {
      mark.open = false;
    }
  });
}

/** Throws when the calling code runs inside an open transaction of `owner`. */
export function assertOutsideTransaction(owner: object, what: string): void {
  const mark = marks.getStore();
  if (mark?.open && mark.owner === owner) throw new OpenTransactionError(what);
}

/** Replaces `target[name]` (a method) with one that checks the guard first. */
export function guardMethod<T extends object, K extends keyof T>(owner: object, target: T, name: K): void {
  const original = target[name];
  if (typeof original !== 'function') throw new Error(`guardMethod: ${String(name)} is not a method`);
  const bound = (original as (...args: unknown[]) => unknown).bind(target);
  (target as Record<K, unknown>)[name] = (...args: unknown[]) => {
    try {
      assertOutsideTransaction(owner, String(name));
    } catch (err) {
      return Promise.reject(err);
    }
    return bound(...args);
  };
}

/** Wraps a Drizzle database's `transaction` so that its bodies run marked (see inTransactionBody). */
export function guardTransactions(owner: object, db: { transaction: (...args: never[]) => unknown }): void {
  const original = (
    db.transaction as (fn: (tx: unknown) => Promise<unknown>, config?: unknown) => unknown
  ).bind(db);
  (db as { transaction: unknown }).transaction = (
    fn: (tx: unknown) => Promise<unknown>,
    config?: unknown,
  ) => {
    assertOutsideTransaction(owner, 'a nested db.transaction');
    return original((tx) => inTransactionBody(owner, () => fn(tx)), config);
  };
}
