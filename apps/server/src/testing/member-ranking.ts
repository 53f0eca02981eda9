import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { LOCKS, xactLock } from '../db/locks.ts';
import { addDays } from '../lib/days.ts';
import type { MemberQuery } from '../modules/activity/members-ranking.ts';
import { rollupBuffer } from '../modules/activity/rollups.ts';
import { rebuildStandingWindows } from '../modules/activity/standing-windows.ts';

/** One day's activity of a member in a channel: [day, member, channel, messages, replies, reactions]. */
export type ActivityRow = [string, string, string, number, number, number];

/**
 * Applies activity as ingestion does (through the rollup buffer, under the ingest lock), then builds the
 * standing windows for the anchor day, so the Members ranking reads what a live workspace would hold.
 */
export async function applyActivity(db: Db, teamId: string, anchorDay: string, rows: ActivityRow[]) {
  const buf = rollupBuffer();
  for (const [day, member, channel, messages, replies, reactions] of rows)
    buf.add(teamId, { day, hour: 12 }, member, channel, { messages, replies, reactions });
  await db.transaction(async (tx) => {
    await xactLock(tx, LOCKS.ingest);
    await buf.flush(tx);
    await rebuildStandingWindows(tx, teamId, anchorDay);
  });
}

/** The database (and its transactions) with every executed statement's text pushed onto `executed`. */
export function recordingDb(db: Db, executed: string[]): Db {
  const dialect = new PgDialect();
  function wrap<T extends object>(target: T): T {
    return new Proxy(target, {
      get(obj, key, receiver) {
        if (key === 'execute')
          return (q: SQL) => {
            executed.push(dialect.sqlToQuery(q).sql);
            return (obj as unknown as Db).execute(q);
          };
        if (key === 'transaction')
          return (fn: (tx: Db) => Promise<unknown>) =>
            (obj as unknown as Db).transaction((tx) => fn(wrap(tx) as unknown as Db));
        return Reflect.get(obj, key, receiver);
      },
    });
  }
  return wrap(db);
}

/** A Members query over the 7 days up to the anchor, no filter, with the given sort; `over` replaces any part. */
export const memberQueryFor =
  (teamId: string, anchorDay: string, sort: MemberQuery['sort']) =>
  (over: Partial<MemberQuery>): MemberQuery => ({
    teamId,
    fromDay: addDays(anchorDay, -6),
    toDay: anchorDay,
    channels: null,
    tags: null,
    base: null,
    activity: null,
    search: null,
    memberIds: null,
    sort,
    ...over,
  });
