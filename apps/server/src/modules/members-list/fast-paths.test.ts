import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberSortField } from '@flywheel/shared/members';
import type { Db } from '../../db/client.ts';
import { typedResult } from '../../db/sql.ts';
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
 * The Members list's fast paths (a profile sort with no activity condition walks the column's order for the
 * page alone) must give the very page the general path gives, which ranks every match with its activity: same
 * rows, same order (ties on the key broken by member id, members without the key last either way), same totals,
 * same count and count of members who left, for every window, filter and page.
 */
describe('Members fast paths equal the general ranking', () => {
  let t: TestApp;
  let db: Db;
  const team = 'TFAST';
  const A = '2026-11-21';
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const ids: string[] = [];
  const executed: string[] = [];
  let tag = 0;

  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
    db = t.ctx.database.db;
    await db.execute(sql`insert into workspaces (team_id, workspace_name, domain, timezone)
      values (${team}, 'Fast', 'fast', 'UTC')`);
    // Another workspace with the same member ids: never counted or listed here.
    await db.execute(sql`insert into workspaces (team_id, workspace_name, domain, timezone)
      values ('TOTHER', 'Other', 'other', 'UTC')`);
    // Names that tie (in any case), blank names, e-mails that tie or are missing, missing join times, bots,
    // members who left.
    const names = ['Ada', 'ada', 'ADA', 'Grace', 'Linus', 'Zoë', 'Émile', '', 'Bob', 'bob'];
    const joins = [...Array(12)].map((_, i) => new Date(Date.parse(`${A}T00:00:00Z`) - i * 9 * 86_400_000));
    for (let i = 0; i < 160; i++) {
      const id = `U${Math.floor(rand() * 36 ** 5)
        .toString(36)
        .toUpperCase()}`;
      if (ids.includes(id)) continue;
      ids.push(id);
      const email = rand() < 0.75 ? pick(['a@x.test', 'B@x.test', `${id.toLowerCase()}@x.test`]) : null;
      const joined = rand() < 0.8 ? pick(joins) : null;
      const active = rand() < 0.7 ? new Date(Date.parse(`${A}T00:00:00Z`) - rand() * 50 * 86_400_000) : null;
      for (const teamId of [team, 'TOTHER'])
        await db.execute(sql`insert into slack_members (team_id, member_id, real_name, display_name, email,
            joined_at, last_active_at, is_bot, deleted)
          values (${teamId}, ${id}, ${pick(names)}, ${pick(names)}, ${email},
            ${joined?.toISOString() ?? null}::timestamptz, ${active?.toISOString() ?? null}::timestamptz,
            ${i % 13 === 4}, ${i % 9 === 2})`);
      for (const c of ['C1', 'C2', 'C3'])
        if (rand() < 0.4)
          await db.execute(sql`insert into slack_channel_members (team_id, channel_id, member_id)
            values (${team}, ${c}, ${id}) on conflict do nothing`);
      if (joined && rand() < 0.5)
        await db.execute(sql`insert into slack_member_events (team_id, member_id, kind, at, day)
          values (${team}, ${id}, 'join', ${joined.toISOString()}::timestamptz, ${joined.toISOString().slice(0, 10)}::date)`);
    }
    const made = await typedResult<{ id: number }>(
      db,
      sql`insert into tags (team_id, name) values (${team}, 'vip') returning id`,
    );
    tag = Number(made.rows[0]!.id);
    for (const id of ids)
      if (rand() < 0.3)
        await db.execute(
          sql`insert into member_tags (team_id, member_id, tag_id) values (${team}, ${id}, ${tag})`,
        );
    // Activity as ingestion applies it, some taken back, then standing windows for the anchor day.
    const actors = ids.slice(0, 120);
    const added: ActivityRow[] = [];
    for (let i = 0; i < 2000; i++)
      added.push([
        addDays(A, -Math.floor(rand() * 200)),
        pick(actors),
        pick(['C1', 'C2', 'C3']),
        Math.floor(rand() * 3),
        Math.floor(rand() * 2),
        Math.floor(rand() * 3),
      ]);
    for (const r of added.slice(0, 100)) added.push([r[0], r[1], r[2], -r[3], -r[4], -r[5]]);
    // Two members whose totals are negative (activity taken back that was never counted): listed last.
    added.push([A, ids[125]!, 'C1', -1, 0, 0], [addDays(A, -3), ids[126]!, 'C2', 0, -2, 0]);
    await applyActivity(db, team, A, added);
  }, 120_000);
  afterAll(() => t?.close());

  const recorded = (): Db => recordingDb(db, executed);
  const query = memberQueryFor(team, A, { field: 'real_name', direction: 'asc' });

  const windows: [string, Partial<MemberQuery>][] = [
    ['7 standing days', {}],
    ['365 standing days', { fromDay: addDays(A, -364) }],
    ['a custom 60-day range', { fromDay: addDays(A, -90), toDay: addDays(A, -31) }],
  ];
  const filters: [string, Partial<MemberQuery>][] = [
    ['nothing', {}],
    ['two channels (any)', { channels: ['C1', 'C3'] }],
    ['two channels (every one)', { channels: ['C1', 'C2'], channelCombiner: 'AND' }],
    ['a tag', {}], // the tag's id is known once seeded
    ['a search', { search: 'ada' }],
    ['a search of an e-mail', { search: 'X.TEST' }],
    ['joined in the last 60 days', { base: { kind: 'join', fromDay: addDays(A, -59), toDay: A } }],
    ['chosen members', {}],
  ];
  const profileSorts: MemberSortField[] = ['real_name', 'display_name', 'email', 'join_time', 'last_active'];
  // Activity, most first, over a standing window with no channel filter: the window's activity index walked.
  const sorts: MemberSortField[] = [...profileSorts, 'activity'];
  const fastFor = (q: MemberQuery) =>
    profileSorts.includes(q.sort.field) ||
    (q.sort.direction === 'desc' && !q.channels && q.toDay === A && [7, 365].includes(daysOf(q)));
  const daysOf = (q: MemberQuery) => (Date.parse(q.toDay) - Date.parse(q.fromDay)) / 86_400_000 + 1;

  it('profile and activity sorts, both ways, every window and filter, first / middle / last / past-the-end pages', async () => {
    const general = membersRepo(db, { fastPaths: false });
    // Filters that pick a few members rank them alone (not a fast path) up to 2,000 of them: none here.
    const fast = membersRepo(recorded(), { fewCandidates: 0 });
    let compared = 0;
    // Every filter over the standing week; the other windows (other ways of reading the totals) with a few.
    const combos = windows.flatMap(([, w], i) =>
      filters.filter((_, j) => i === 0 || j === 0 || j === 3).map(([name, f]) => [w, name, f] as const),
    );
    // Activity most first only: the other way is the general path on both sides.
    const orders = sorts.flatMap((field) =>
      (field === 'activity' ? ['desc' as const] : (['asc', 'desc'] as const)).map((direction) => ({
        field,
        direction,
      })),
    );
    for (const [w, name, f] of combos)
      for (const { field, direction } of orders) {
        const extra: Partial<MemberQuery> =
          name === 'a tag'
            ? { tags: [tag] }
            : name === 'chosen members'
              ? { memberIds: ids.slice(3, 60) }
              : f;
        const q = query({ ...w, ...extra, sort: { field, direction } });
        const first = await general.page(q, 9, 0);
        const offsets = [0, 9 * Math.floor(first.total / 18), Math.max(0, first.total - 4)];
        if (field === 'real_name' || field === 'activity') offsets.push(first.total + 2);
        for (const offset of offsets) {
          const want = offset === 0 ? first : await general.page(q, 9, offset);
          const before = executed.length;
          const got = await fast.page(q, 9, offset);
          const label = JSON.stringify({ w, extra, sort: q.sort, offset });
          expect(got, label).toEqual(want);
          // The fast path: nothing ranked with every match's activity.
          const ranked = executed.slice(before).some((s) => s.includes('count(*) over ()'));
          expect(ranked, label).toBe(!fastFor(q));
          compared++;
        }
      }
    expect(compared).toBe((filters.length + 2 * 2) * (orders.length * 3 + 3));
  }, 300_000);

  it('the comparison is not trivial: ties, missing keys, members who left, activity in the pages', async () => {
    const general = membersRepo(db, { fastPaths: false });
    const all = await general.page(query({ fromDay: addDays(A, -364) }), 500, 0);
    const people = ids.filter((_, i) => i % 13 !== 4).length;
    expect(all.total).toBe(people);
    expect(all.left).toBeGreaterThan(5);
    expect(all.rows.filter((r) => r.messages + r.replies + r.reactions > 0).length).toBeGreaterThan(50);
    const lowered = all.rows.map((r) => r.real_name.toLowerCase());
    expect(lowered.length - new Set(lowered).size).toBeGreaterThan(50);
    expect(all.rows.filter((r) => r.email === '').length).toBeGreaterThan(10);
    expect(all.rows.filter((r) => r.join_time === null).length).toBeGreaterThan(10);
    const week = await general.page(query({ sort: { field: 'activity', direction: 'desc' } }), 500, 0);
    expect(week.rows.at(-1)!.messages + week.rows.at(-1)!.replies + week.rows.at(-1)!.reactions).toBeLessThan(
      0,
    );
  });

  it('an activity condition, another activity sort, a custom range or a channel filter takes the general path', async () => {
    const fast = membersRepo(recorded());
    const ranked = async (q: MemberQuery) => {
      const before = executed.length;
      await fast.page(q, 9, 0);
      return executed.slice(before).some((s) => s.includes('count(*) over ()'));
    };
    expect(await ranked(query({}))).toBe(false);
    expect(
      await ranked(
        query({
          activity: { combiner: 'AND', conditions: [{ column: 'messages', operator: '>', count: 0 }] },
        }),
      ),
    ).toBe(true);
    expect(await ranked(query({ sort: { field: 'messages', direction: 'desc' } }))).toBe(true);
    expect(await ranked(query({ search: 'ada' }))).toBe(true); // a few members picked: ranked alone
    expect(await ranked(query({ sort: { field: 'activity', direction: 'desc' } }))).toBe(false);
    expect(await ranked(query({ sort: { field: 'activity', direction: 'asc' } }))).toBe(true);
    const custom = { fromDay: addDays(A, -20), toDay: addDays(A, -3) };
    expect(await ranked(query({ ...custom, sort: { field: 'activity', direction: 'desc' } }))).toBe(true);
    expect(await ranked(query({ channels: ['C1'], sort: { field: 'activity', direction: 'desc' } }))).toBe(
      true,
    );
  });
});
