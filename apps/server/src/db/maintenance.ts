import { getTableName, sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineJob } from '../jobs/queue.ts';
import { BUSY_ROLLUPS } from '../modules/activity/table.ts';
import { questionAnswers } from '../modules/conversations/table.ts';
import { slackInbox } from '../modules/intake/table.ts';
import { slackMembers, slackReactions } from '../modules/workspace-data/table.ts';
import type { Database } from './client.ts';
import { firstRow } from './sql.ts';

/**
 * The tables ingestion updates in place all day (counters, last-active times, the inbox), named through their
 * owners' table objects; the activity module lists its own rollups.
 */
export const BUSY_TABLES: readonly string[] = [
  ...[slackMembers, slackInbox, slackReactions, questionAnswers].map((t) => getTableName(t)),
  ...BUSY_ROLLUPS,
];

/**
 * VACUUM (ANALYZE) of the busy tables when nothing else does it: embedded PGlite has no autovacuum, and a
 * PostgreSQL server may have it turned off. Without it their dead row versions pile up, tables grow, index-only
 * scans stop being index-only and the planner's statistics go stale. Returns what it vacuumed ([] when
 * autovacuum is on).
 */
export async function vacuumBusyTables(database: Database): Promise<string[]> {
  if (database.kind === 'postgres') {
    const r = await firstRow<{ v: string }>(database.db, sql`select current_setting('autovacuum') as v`);
    if (r?.v === 'on') return [];
  }
  for (const table of BUSY_TABLES) await database.db.execute(sql.raw(`vacuum (analyze) ${table}`));
  return [...BUSY_TABLES];
}

/** `db.maintenance`: the nightly VACUUM (ANALYZE) of the busy tables where autovacuum does not run. */
export const maintenanceJob = defineJob({
  id: 'db.maintenance',
  payload: z.object({}).passthrough(),
  cron: '50 3 * * *',
  retryLimit: 1,
  handle: async (_data, { ctx, logger }) => {
    const done = await vacuumBusyTables(ctx.database);
    if (done.length) logger.info({ tables: done.length }, 'vacuumed the busy tables');
  },
});
