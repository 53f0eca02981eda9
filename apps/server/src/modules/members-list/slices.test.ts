import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MemberSortField } from '@flywheel/shared/members';
import type { Db } from '../../db/client.ts';
import { addDays } from '../../lib/days.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { membersRepo, type MemberQuery } from '../activity/members-ranking.ts';
import {
  applyActivity,
  memberQueryFor,
  recordingDb,
  type ActivityRow,
} from '../../testing/member-ranking.ts';

/**
 * A whole-workspace page ranked in slices of the member id order (side by side on PostgreSQL) must be the
 * very page one query gives: same rows, same order (ties broken by member id across slice borders), same
 * total, for every sort, window, channel and activity filter, at every offset.
 */
describe('Members pages ranked in slices equal one-query pages', () => {
  let t: TestApp;
  let db: Db;
  const team = 'TSLICES';
  const A = '2026-11-21';
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const ids: string[] = [];
  const executed: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
    db = t.ctx.database.db;
    await db.execute(sql`insert into workspaces (team_id, workspace_name, domain, timezone)
      values (${team}, 'Slices', 'slices', 'UTC')`);
    // Ids of uneven length and spread, so the slices are uneven; a few bots; names that tie.
    const names = ['Ada', 'ada', 'Grace', 'Linus', 'Zoë', 'Émile', '', 'Bob'];
    for (let i = 0; i < 180; i++) {
      const id = `U${Math.floor(rand() * 36 ** 6)
        .toString(36)
        .toUpperCase()}${i % 7 === 0 ? 'X' : ''}`;
      if (ids.includes(id)) continue;
      ids.push(id);
      const joined = rand() < 0.9 ? new Date(Date.parse(`${A}T00:00:00Z`) - rand() * 400 * 86_400_000) : null;
      const active = rand() < 0.7 ? new Date(Date.parse(`${A}T00:00:00Z`) - rand() * 100 * 86_400_000) : null;
      await db.execute(sql`insert into slack_members (team_id, member_id, real_name, display_name, email,
          joined_at, last_active_at, is_bot, is_admin, deleted)
        values (${team}, ${id}, ${pick(names)}, ${pick(names)}, ${rand() < 0.8 ? `${id.toLowerCase()}@x.test` : null},
          ${joined?.toISOString() ?? null}::timestamptz, ${active?.toISOString() ?? null}::timestamptz,
          ${i % 23 === 5}, ${i % 17 === 3}, false)`);
      for (const c of ['C1', 'C2', 'C3'])
        if (rand() < 0.4)
          await db.execute(sql`insert into slack_channel_members (team_id, channel_id, member_id)
            values (${team}, ${c}, ${id}) on conflict do nothing`);
    }
    // Activity through the rollup buffer as ingestion applies it (someone not in the directory included),
    // with some of it taken back, then standing windows built for the anchor day.
    const actors = [...ids.slice(0, 130), 'UNKNOWN1'];
    const added: ActivityRow[] = [];
    for (let i = 0; i < 2500; i++) {
      const row: ActivityRow = [
        addDays(A, -Math.floor(rand() * 200)),
        pick(actors),
        pick(['C1', 'C2', 'C3']),
        Math.floor(rand() * 3),
        Math.floor(rand() * 2),
        Math.floor(rand() * 3),
      ];
      added.push(row);
    }
    for (const r of added.slice(0, 150)) added.push([r[0], r[1], r[2], -r[3], -r[4], -r[5]]);
    await applyActivity(db, team, A, added);
  }, 120_000);
  afterAll(() => t?.close());

  const recorded = (): Db => recordingDb(db, executed);
  const query = memberQueryFor(team, A, { field: 'activity', direction: 'desc' });

  const windows: [string, Partial<MemberQuery>][] = [
    ['7 standing days', {}],
    ['365 standing days', { fromDay: addDays(A, -364) }],
    ['a custom 60-day range', { fromDay: addDays(A, -90), toDay: addDays(A, -31) }],
    [
      'a year ending yesterday (the standing year corrected)',
      { fromDay: addDays(A, -365), toDay: addDays(A, -1) },
    ],
    ['a range across a year end', { fromDay: '2025-12-20', toDay: '2026-02-03' }],
    ['two channels over 90 days', { fromDay: addDays(A, -89), channels: ['C1', 'C3'] }],
  ];
  const filters: [string, MemberQuery['activity']][] = [
    ['no activity filter', null],
    ['messages < 3', { combiner: 'AND', conditions: [{ column: 'messages', operator: '<', count: 3 }] }],
    [
      'replies = 0 or reactions > 2',
      {
        combiner: 'OR',
        conditions: [
          { column: 'replies', operator: '=', count: 0 },
          { column: 'reactions', operator: '>', count: 2 },
        ],
      },
    ],
    [
      'messages > 1 and reactions > 0',
      {
        combiner: 'AND',
        conditions: [
          { column: 'messages', operator: '>', count: 1 },
          { column: 'reactions', operator: '>', count: 0 },
        ],
      },
    ],
  ];
  const sorts: MemberSortField[] = [
    'activity',
    'messages',
    'replies',
    'reactions',
    'real_name',
    'display_name',
    'email',
    'last_active',
    'join_time',
  ];

  it('for every window and activity filter, over every sort both ways, at the first, a middle, the last and a past-the-end page', async () => {
    const one = membersRepo(db);
    // Without the fast paths, which answer some of these pages without ranking (fast-paths.test.ts).
    const sliced = membersRepo(recorded(), { slices: 3, sliceFromMembers: 1, fastPaths: false });
    const orders = sorts.flatMap((field) =>
      (['asc', 'desc'] as const).map((direction) => ({ field, direction })),
    );
    const seen = new Set<string>();
    let turn = 0;
    for (const [, w] of windows)
      for (const [, activity] of filters)
        for (let k = 0; k < 3; k++) {
          const sort = orders[turn++ % orders.length]!;
          seen.add(`${sort.field} ${sort.direction}`);
          const q = query({ ...w, activity, sort });
          const first = await one.page(q, 7, 0);
          const total = first.total;
          const offsets = [0, 7 * Math.floor(total / 14), Math.max(0, total - 5)];
          if (k === 0) offsets.push(total + 3);
          for (const offset of offsets) {
            const want = offset === 0 ? first : await one.page(q, 7, offset);
            const before = executed.length;
            const got = await sliced.page(q, 7, offset);
            const label = JSON.stringify({ w, activity, sort, offset });
            expect(got, label).toEqual(want);
            // It did rank in slices (three rankings, then the page's details); channel filters in one query.
            const ran = executed.slice(before);
            expect(ran.filter((s) => s.includes('count(*) over ())::int as total')).length, label).toBe(
              w.channels ? 1 : 3,
            );
          }
        }
    expect(seen.size).toBe(orders.length);
  }, 240_000); // ~30 s on a quiet machine; far more on a loaded one (this is a comparison, not a timing)

  it('the pages are not trivial: members tie on their sort keys across slice borders, and totals vary', async () => {
    const one = membersRepo(db);
    const everyone = await one.page(query({ fromDay: addDays(A, -90), toDay: addDays(A, -31) }), 500, 0);
    const people = ids.length - ids.filter((_, i) => i % 23 === 5).length;
    expect(everyone.total).toBe(people);
    const zero = everyone.rows.filter((r) => r.messages + r.replies + r.reactions === 0);
    expect(zero.length).toBeGreaterThan(10);
    expect(everyone.rows.length - zero.length).toBeGreaterThan(50);
    const few = await one.page(
      query({ activity: filters[3]![1], fromDay: addDays(A, -90), toDay: addDays(A, -31) }),
      500,
      0,
    );
    expect(few.total).toBeGreaterThan(0);
    expect(few.total).toBeLessThan(everyone.total);
  });

  it('a small workspace, a deep page, a narrowing filter and a channel filter are ranked in one query', async () => {
    const count = async (repo: ReturnType<typeof membersRepo>, q: MemberQuery, offset: number) => {
      const before = executed.length;
      await repo.page(q, 10, offset);
      return executed.slice(before).filter((s) => s.includes('count(*) over ())::int as total')).length;
    };
    const bigOnly = membersRepo(recorded(), { slices: 3, fastPaths: false }); // 5,000 members and up
    expect(await count(bigOnly, query({}), 0)).toBe(1);
    const sliced = membersRepo(recorded(), { slices: 3, sliceFromMembers: 1, fastPaths: false });
    expect(await count(sliced, query({}), 0)).toBe(3);
    expect(await count(sliced, query({}), 5000)).toBe(1);
    expect(await count(sliced, query({ search: 'ada' }), 0)).toBe(1);
    expect(await count(sliced, query({ channels: ['C1'] }), 0)).toBe(1);
  });

  it('the slice cuts are worked out once, and again in the background when they are older than ten minutes', async () => {
    const sliced = membersRepo(recorded(), { slices: 2, sliceFromMembers: 1 });
    const one = membersRepo(db);
    // members-ranking.ts names slack_members through its table object: Drizzle renders it quoted.
    const counts = () => executed.filter((s) => s.includes('count(*)::int as n from "slack_members"')).length;
    const before = counts();
    const q = query({ fromDay: addDays(A, -90), toDay: addDays(A, -31) });
    const want = await one.page(q, 10, 20);
    expect(await sliced.page(q, 10, 20)).toEqual(want);
    expect(counts()).toBe(before + 1);
    expect(await sliced.page(q, 10, 20)).toEqual(want);
    expect(counts()).toBe(before + 1);
    const later = Date.now() + 11 * 60_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      expect(await sliced.page(q, 10, 20)).toEqual(want); // the old cuts, at once
      await vi.waitFor(() => expect(counts()).toBe(before + 2));
      expect(await sliced.page(q, 10, 20)).toEqual(want);
      expect(counts()).toBe(before + 2);
    } finally {
      clock.mockRestore();
    }
  });
});
