import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { UNIFORM_COSTS } from './member-window.ts';
import { LOCKS, xactLock } from '../../db/locks.ts';
import { rollupBuffer } from './rollups.ts';
import {
  WINDOW_COLUMNS,
  memberTotalsSource,
  readingOf,
  rebuildStandingWindows,
  refreshStandingWindows,
  standingPrefix,
  windowAndPieces,
  windowsOfDay,
} from './standing-windows.ts';
import { typedResult, typedRows } from '../../db/sql.ts';

describe('which standing window a range or a day is', () => {
  it.each([
    ['2026-11-15', '2026-11-21', 'w7'],
    ['2026-11-08', '2026-11-14', 'p7'],
    ['2025-11-22', '2026-11-21', 'w365'],
    ['2024-11-22', '2025-11-21', 'p365'],
    ['2026-08-24', '2026-11-21', 'w90'],
    ['2026-11-08', '2026-11-21', 'w14'],
    ['2026-11-16', '2026-11-21', null], // 6 days
    ['2026-11-14', '2026-11-20', null], // 7 days ending yesterday
    ['2026-11-22', '2026-11-28', null], // the future
  ])('%s..%s with the anchor 2026-11-21 -> %s', (from, to, want) => {
    expect(standingPrefix('2026-11-21', from, to)).toBe(want);
  });

  it('a day belongs to the current or the previous window of each length', () => {
    expect(windowsOfDay('2026-11-21', '2026-11-21')).toEqual(['w7', 'w14', 'w90', 'w365']);
    expect(windowsOfDay('2026-11-21', '2026-11-14')).toEqual(['p7', 'w14', 'w90', 'w365']);
    expect(windowsOfDay('2026-11-21', '2026-11-08')).toEqual(['p7', 'w14', 'w90', 'w365']);
    expect(windowsOfDay('2026-11-21', '2026-11-07')).toEqual(['p14', 'w90', 'w365']);
    expect(windowsOfDay('2026-11-21', '2025-11-22')).toEqual(['w365']);
    expect(windowsOfDay('2026-11-21', '2025-11-21')).toEqual(['p365']);
    expect(windowsOfDay('2026-11-21', '2024-11-22')).toEqual(['p365']);
    expect(windowsOfDay('2026-11-21', '2024-11-21')).toEqual([]);
    expect(windowsOfDay('2026-11-21', '2026-11-22')).toEqual([]);
  });
});

describe('reading a range through a standing window near it', () => {
  const A = '2026-11-21';
  const costs = { ...UNIFORM_COSTS, windowRows: 9 };
  it('a year ending yesterday is the year ending today, less today, plus the day before it', () => {
    expect(windowAndPieces(A, '2025-11-21', '2026-11-20', costs)).toEqual({
      prefix: 'w365',
      pieces: [
        { from: '2025-11-21', to: '2025-11-21', sign: 1 },
        { from: '2026-11-21', to: '2026-11-21', sign: -1 },
      ],
    });
  });
  it('a previous window, shortened at both ends', () => {
    expect(windowAndPieces(A, '2024-11-25', '2025-11-19', costs)).toEqual({
      prefix: 'p365',
      pieces: [
        { from: '2024-11-22', to: '2024-11-24', sign: -1 },
        { from: '2025-11-20', to: '2025-11-21', sign: -1 },
      ],
    });
  });
  it('months without activity cost nothing: a year before the data began is read from its (empty) months', () => {
    const since = '2026-06-01';
    const sparse = {
      day: (d: string) => (d >= since ? 1 : 0),
      month: (m: string) => (m >= since ? 5 : 0),
      windowRows: 9,
    };
    expect(windowAndPieces(A, '2025-11-21', '2026-11-20', sparse)?.prefix).toBe('w365');
    expect(windowAndPieces(A, '2025-01-01', '2025-12-31', costs)?.prefix).toBe('p365');
    expect(windowAndPieces(A, '2025-01-01', '2025-12-31', sparse)).toBeNull();
  });
  it('short ranges and ranges far from every window are read from months and days', () => {
    expect(windowAndPieces(A, '2026-11-14', '2026-11-20', costs)).toBeNull(); // 7 days ending yesterday
    expect(windowAndPieces(A, '2026-08-23', '2026-10-21', costs)).toBeNull(); // 60 days ending a month ago
    expect(windowAndPieces(A, '2026-01-01', '2026-06-30', costs)).toBeNull(); // whole months
  });
});

/** Random activity over ~2.5 years, applied through the rollup buffer exactly as ingestion batches do. */
describe('standing windows and active members per day, against a brute-force count', () => {
  let t: TestApp;
  const team = 'TSTANDING';
  const tz = 'UTC';
  const A = '2026-11-21';
  type Delta = { day: string; member: string; messages: number; replies: number; reactions: number };
  const applied: Delta[] = [];
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const dayBack = (n: number) =>
    new Date(Date.parse(`${A}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

  async function batch(n: number, opts: { maxBack: number; minBack?: number; negative?: boolean }) {
    const buf = rollupBuffer();
    for (let i = 0; i < n; i++) {
      const back = (opts.minBack ?? 0) + Math.floor(rand() * (opts.maxBack - (opts.minBack ?? 0)));
      const d: Delta = {
        day: dayBack(back),
        member: `U${Math.floor(rand() * 40)}`,
        messages: Math.floor(rand() * 3),
        replies: Math.floor(rand() * 2),
        reactions: Math.floor(rand() * 2),
      };
      applied.push(d);
      buf.add(team, { day: d.day, hour: 10 }, d.member, 'C1', d);
    }
    if (opts.negative) {
      // Take back some earlier activity (deleted messages, removed reactions): totals may fall to zero.
      for (const d of applied.slice(0, 60)) {
        const undo = { ...d, messages: -d.messages, replies: -d.replies, reactions: -d.reactions };
        applied.push(undo);
        buf.add(team, { day: d.day, hour: 10 }, d.member, 'C1', undo);
      }
    }
    await t.ctx.database.db.transaction(async (tx) => {
      await xactLock(tx, LOCKS.ingest);
      await buf.flush(tx);
    });
  }

  /** Per member, every window column computed from the applied deltas for anchor `anchor`. */
  function expected(anchor: string) {
    const out = new Map<string, Record<string, number>>();
    for (const d of applied) {
      const row = out.get(d.member) ?? Object.fromEntries(WINDOW_COLUMNS.map((c) => [c, 0]));
      out.set(d.member, row);
      for (const p of windowsOfDay(anchor, d.day)) {
        row[`${p}_messages`]! += d.messages;
        row[`${p}_replies`]! += d.replies;
        row[`${p}_reactions`]! += d.reactions;
      }
    }
    return out;
  }

  async function stored() {
    const r = await typedResult<Record<string, number | string>>(
      t.ctx.database.db,
      sql`select * from activity_member_windows where team_id = ${team}`,
    );
    return new Map(
      r.rows.map((row) => [
        row.member_id as string,
        Object.fromEntries(WINDOW_COLUMNS.map((c) => [c, row[c]])),
      ]),
    );
  }

  async function expectWindows(anchor: string) {
    const want = expected(anchor);
    const got = await stored();
    const zero = Object.fromEntries(WINDOW_COLUMNS.map((c) => [c, 0]));
    for (const m of new Set([...want.keys(), ...got.keys()]))
      expect(got.get(m) ?? zero, `member ${m}`).toEqual(want.get(m) ?? zero);
  }

  async function expectActivePerDay() {
    const totals = new Map<string, number>();
    for (const d of applied) {
      const k = `${d.day}|${d.member}`;
      totals.set(k, (totals.get(k) ?? 0) + d.messages + d.replies + d.reactions);
    }
    const want = new Map<string, number>();
    for (const [k, v] of totals) if (v > 0) want.set(k.slice(0, 10), (want.get(k.slice(0, 10)) ?? 0) + 1);
    const r = await typedResult<{ day: string; n: number }>(
      t.ctx.database.db,
      sql`select day::text as day, active_members as n from activity_team_daily where team_id = ${team} and active_members <> 0`,
    );
    expect(new Map(r.rows.map((x) => [x.day, x.n]))).toEqual(want);
  }

  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
  });
  afterAll(() => t?.close());

  it('before any build, reads sum the rollups and no window is kept', async () => {
    await batch(800, { maxBack: 900 });
    expect((await stored()).size).toBe(0);
    await expectActivePerDay();
  });

  it('a build equals the brute force; later batches (past, present, future, take-backs) keep it equal', async () => {
    await t.ctx.database.db.transaction(async (tx) => {
      await xactLock(tx, LOCKS.ingest);
      await rebuildStandingWindows(tx, team, A);
    });
    await expectWindows(A);
    await batch(600, { maxBack: 800, negative: true });
    await batch(50, { minBack: -3, maxBack: 0 }); // days after the anchor: no window yet
    await expectWindows(A);
    await expectActivePerDay();
  });

  it('the refresh moves the windows to the new local day, counting what was ahead of the old anchor', async () => {
    const tomorrow = new Date(Date.parse(`${A}T12:00:00Z`) + 86_400_000);
    expect(
      await refreshStandingWindows(t.ctx.database.db, new Map([[team, tz]]), new Date(`${A}T12:00:00Z`)),
    ).toEqual([]);
    expect(await refreshStandingWindows(t.ctx.database.db, new Map([[team, tz]]), tomorrow)).toEqual([team]);
    const next = tomorrow.toISOString().slice(0, 10);
    await expectWindows(next);
    await batch(200, { minBack: -1, maxBack: 400 });
    await expectWindows(next);
  });

  it('reads from the windows give the same per-member totals as summing the rollups', async () => {
    const db = t.ctx.database.db;
    const next = new Date(Date.parse(`${A}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const back = (n: number) =>
      new Date(Date.parse(`${next}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    const kinds: string[] = [];
    for (const [from, to] of [
      [back(6), next],
      [back(13), back(7)],
      [back(364), next],
      [back(729), back(365)],
      [back(89), next],
      // Near a standing window: read as the window corrected by the days between the edges.
      [back(365), back(1)],
      [back(360), back(3)],
      [back(740), back(370)],
      [back(364), back(2)],
      // Short, far from one, or too far inside one: months and days.
      [back(95), back(2)],
      [back(15), back(1)],
      [back(200), back(130)],
      [back(45), back(15)],
    ] as const) {
      kinds.push((await readingOf(db, team, from, to)).kind);
      const viaWindows = await memberTotalsSource(db, team, from, to);
      const rows = (q: SQL) =>
        typedRows<{ member_id: string; messages: number; replies: number; reactions: number }>(db, q).then(
          (r) =>
            r
              .filter((x) => x.messages || x.replies || x.reactions)
              .map((x) => ({ ...x }))
              .sort((a, b) => a.member_id.localeCompare(b.member_id)),
        );
      const summed = sql`select member_id, sum(messages)::int as messages, sum(replies)::int as replies,
        sum(reactions)::int as reactions from activity_member_daily
        where team_id = ${team} and day >= ${from}::date and day <= ${to}::date group by member_id`;
      const a = await rows(viaWindows);
      expect(a.length).toBeGreaterThan(0);
      expect(a, `${from}..${to}`).toEqual(await rows(summed));
    }
    expect(kinds).toEqual([
      ...['window', 'window', 'window', 'window', 'window'],
      ...['near', 'near', 'near', 'near'],
      ...['rollups', 'rollups', 'rollups', 'rollups'],
    ]);
  });
});
