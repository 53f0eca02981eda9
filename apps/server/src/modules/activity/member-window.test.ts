import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { memberWindowRows, splitWindow, windowPlan } from './member-window.ts';
import { typedRows } from '../../db/sql.ts';

describe('splitWindow', () => {
  it.each([
    ['2026-01-01', '2026-12-31', { fullFrom: '2026-01-01', fullTo: '2027-01-01' }],
    ['2025-11-21', '2026-11-20', { fullFrom: '2025-12-01', fullTo: '2026-11-01' }],
    ['2026-02-03', '2026-02-20', { fullFrom: '2026-03-01', fullTo: '2026-03-01' }],
    ['2026-02-01', '2026-02-28', { fullFrom: '2026-02-01', fullTo: '2026-03-01' }],
    ['2024-02-10', '2024-03-31', { fullFrom: '2024-03-01', fullTo: '2024-04-01' }],
  ])('%s..%s', (from, to, want) => {
    expect(splitWindow(from, to)).toEqual(want);
  });
});

describe('windowPlan', () => {
  it.each([
    // Whole months, and edge days read as they are (more days inside the window than outside).
    [
      '2026-01-20',
      '2026-03-10',
      {
        monthRanges: [['2026-02-01', '2026-02-01']],
        plusDays: [
          ['2026-01-20', '2026-01-31'],
          ['2026-03-01', '2026-03-10'],
        ],
        minusDays: [],
      },
    ],
    // Edges mostly inside: the whole month less the few days outside.
    [
      '2026-01-03',
      '2026-03-27',
      {
        monthRanges: [
          ['2026-01-01', '2026-01-01'],
          ['2026-02-01', '2026-02-01'],
          ['2026-03-01', '2026-03-01'],
        ],
        plusDays: [],
        minusDays: [
          ['2026-01-01', '2026-01-02'],
          ['2026-03-28', '2026-03-31'],
        ],
      },
    ],
    [
      '2026-02-03',
      '2026-02-26',
      {
        monthRanges: [['2026-02-01', '2026-02-01']],
        plusDays: [],
        minusDays: [
          ['2026-02-01', '2026-02-02'],
          ['2026-02-27', '2026-02-28'],
        ],
      },
    ],
    [
      '2026-02-10',
      '2026-02-12',
      { monthRanges: [], plusDays: [['2026-02-10', '2026-02-12']], minusDays: [] },
    ],
    [
      '2026-04-01',
      '2026-04-30',
      { monthRanges: [['2026-04-01', '2026-04-01']], plusDays: [], minusDays: [] },
    ],
    [
      '2026-04-01',
      '2026-05-31',
      { monthRanges: [['2026-04-01', '2026-05-01']], plusDays: [], minusDays: [] },
    ],
  ])('%s..%s', (from, to, want) => {
    expect(windowPlan(from, to)).toEqual(want);
  });
});

describe('memberWindowRows', () => {
  let t: TestApp;
  const team = 'TWINDOW';
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
    // Two members, one row a day for ~5 months; the monthly rollup is their sum, as ingestion keeps it.
    await t.ctx.database.db
      .execute(sql`insert into activity_member_daily (team_id, day, member_id, messages, replies, reactions)
      select ${team}, d::date, m, (extract(day from d)::int % 5), (extract(month from d)::int % 3), 1
      from generate_series('2026-01-15'::timestamp, '2026-06-10'::timestamp, interval '1 day') d, unnest(array['U1', 'U2']) m`);
    await t.ctx.database.db
      .execute(sql`insert into activity_member_monthly (team_id, month, member_id, messages, replies, reactions)
      select team_id, date_trunc('month', day)::date, member_id, sum(messages), sum(replies), sum(reactions)
      from activity_member_daily where team_id = ${team} group by 1, 2, 3`);
  });
  afterAll(() => t.close());

  it.each([
    ['2026-01-20', '2026-06-05'],
    ['2026-02-01', '2026-04-30'],
    ['2026-03-05', '2026-03-25'],
    ['2026-01-01', '2026-12-31'],
    ['2026-02-03', '2026-02-26'],
    ['2026-03-02', '2026-04-29'],
    ['2026-01-20', '2026-02-10'],
    ['2026-06-01', '2026-06-30'],
    ['2026-05-31', '2026-06-01'],
    ['2026-04-30', '2026-04-30'],
    ['2026-02-28', '2026-05-02'],
  ])('sums the same as the daily rollup for %s..%s', async (from, to) => {
    const q = (src: ReturnType<typeof sql>) =>
      typedRows(
        t.ctx.database.db,
        sql`select member_id, sum(messages)::int as m, sum(replies)::int as r,
        sum(reactions)::int as x from (${src}) w group by member_id order by member_id`,
      );
    const daily = sql`select member_id, messages, replies, reactions from activity_member_daily
      where team_id = ${team} and day >= ${from}::date and day <= ${to}::date`;
    expect(await q(memberWindowRows(team, from, to))).toEqual(await q(daily));
  });
});
