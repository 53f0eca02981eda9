import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDbKind, type TestApp } from '../testing/build-test-app.ts';
import { BUSY_TABLES, vacuumBusyTables } from './maintenance.ts';
import { typedResult } from './sql.ts';

describe('vacuumBusyTables', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
  });
  afterAll(() => t?.close());

  it('vacuums the busy tables unless autovacuum runs, and its pages are all-visible after it', async () => {
    const db = t.ctx.database.db;
    await db.execute(sql`insert into activity_team_daily (team_id, day, active_members)
      select 'TVAC', '2026-01-01'::date + i, 1 from generate_series(0, 199) i`);
    for (let i = 0; i < 3; i++)
      await db.execute(
        sql`update activity_team_daily set active_members = active_members + 1 where team_id = 'TVAC'`,
      );
    const auto = await typedResult<{ v: string }>(db, sql`select current_setting('autovacuum') as v`);
    const done = await vacuumBusyTables(t.ctx.database);
    if (testDbKind() === 'postgres' && auto.rows[0]!.v === 'on') {
      expect(done).toEqual([]);
      return;
    }
    expect(done).toEqual([...BUSY_TABLES]);
    // VACUUM keeps the live rows.
    const n = await typedResult<{ n: number }>(
      db,
      sql`select sum(active_members)::int as n from activity_team_daily where team_id = 'TVAC'`,
    );
    expect(n.rows[0]!.n).toBe(800);
    // Only VACUUM marks pages all-visible (what index-only scans need); the churned table now has them.
    const vm = await typedResult<{ n: number }>(
      db,
      sql`select relallvisible::int as n from pg_class where relname = 'activity_team_daily'`,
    );
    expect(vm.rows[0]!.n).toBeGreaterThan(0);
  });
});
