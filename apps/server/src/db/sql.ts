import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/** Anything that runs SQL: the database or an open transaction. */
export type Tx = Pick<Db, 'execute'>;

/** The `{ rows }` shape both drivers (node-postgres and PGlite) answer a raw statement with. */
export type Rows<T> = { rows: T[] };

/**
 * The one typed boundary over raw SQL: runs `query` and returns its rows as `T`. The statement's select list
 * (its column names and `::casts`) is the contract `T` states; write the row type beside the statement, or
 * take it from the Drizzle schema (`typeof table.$inferSelect`) when the statement selects a table's columns.
 */
export async function typedRows<T>(runner: Tx, query: SQL): Promise<T[]> {
  const result: unknown = await runner.execute(query);
  return (result as Rows<T>).rows;
}

/** The first row of `query` (or undefined). */
export async function firstRow<T>(runner: Tx, query: SQL): Promise<T | undefined> {
  return (await typedRows<T>(runner, query))[0];
}

/** Like `typedRows`, keeping the driver's `{ rows }` shape (for callers that read `.rows`). */
export async function typedResult<T>(runner: Tx, query: SQL): Promise<Rows<T>> {
  return { rows: await typedRows<T>(runner, query) };
}

/** A text[] literal for `unnest`/`any` (PGlite and node-postgres both take it as one parameter). */
export const textArray = (values: readonly string[]): string =>
  `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

/** An int[] literal, likewise. */
export const intArray = (values: readonly number[]): string =>
  `{${values.map((v) => Math.trunc(v)).join(',')}}`;
