import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { connectedWorkspace } from '../../testing/workspace.ts';
import { typedRows } from '../../db/sql.ts';
import { addDays, localDay } from '../../lib/days.ts';
import { applyEvent, factsWriter, type IngestScope } from '../workspace-data/ingest.ts';
import { factsRepo } from '../workspace-data/facts-repo.ts';
import { joinCohortReads, type JoinDayRow } from './cohorts.ts';
import { rebuildCohortWeeks } from './cohort-weeks.ts';
import { rollupBuffer } from './rollups.ts';

/*
 * activity_member_cohort_weeks as the rollup flush keeps it (bit k: activity in local days join day + 7k ..
 * + 7k + 6), and retention by join cohort read through it equal to the same read from activity_member_daily
 * alone, across a deleted message, a removed reaction, a changed join time and activity after the window.
 */

const TEAM = 'TCOHORTW01';
const TZ = 'Europe/Berlin';
const C = 'C0CW00001';
let t: TestApp;
let today: string;
let seq = 0;
/** Noon UTC of the local day `n` days before today (a Slack ts). */
const tsOn = (n: number) =>
  `${Math.floor((Date.parse(`${addDays(today, -n)}T12:00:00Z`) + ++seq * 1000) / 1000)}.${String(seq).padStart(6, '0')}`;

async function apply(events: Record<string, unknown>[]) {
  await t.ctx.database.db.transaction(async (tx) => {
    const s: IngestScope = { tx, teamId: TEAM, tz: TZ, buf: rollupBuffer(), facts: factsWriter() };
    for (const event of events) await applyEvent(s, { team_id: TEAM, event: { channel: C, ...event } });
    await s.facts!.flush(tx);
    await s.buf.flush(tx);
  });
}
const msg = (ts: string, user: string) => ({ type: 'message', ts, user, text: 'hello' });

async function member(id: string, joinedDaysAgo: number) {
  await t.ctx.database.db.transaction(async (tx) => {
    await factsRepo.upsertMember(
      tx,
      TEAM,
      {
        memberId: id,
        realName: id,
        displayName: id,
        email: null,
        avatarUrl: null,
        isAdmin: false,
        isOwner: false,
        isBot: false,
        deleted: false,
        tz: null,
        updated: null,
      },
      new Date(Date.parse(`${addDays(today, -joinedDaysAgo)}T12:00:00Z`)),
    );
  });
}

const weeksOf = async (id: string) =>
  (
    await typedRows<{ join_day: string; weeks: number }>(
      t.ctx.database.db,
      sql`select join_day::text as join_day, weeks from activity_member_cohort_weeks where team_id = ${TEAM} and member_id = ${id}`,
    )
  )[0];

const read = (): Promise<JoinDayRow[]> =>
  joinCohortReads(t.ctx.database.db).joinDays({
    teamId: TEAM,
    timeZone: TZ,
    fromDay: addDays(today, -200),
    toDay: today,
    weeks: 12,
    today,
  });
const sortRows = (rows: JoinDayRow[]) =>
  [...rows].sort((a, b) => `${a.day}|${a.week}`.localeCompare(`${b.day}|${b.week}`));
/** The same read with no stored rows: every member from activity_member_daily. */
async function readFromDailyAlone(): Promise<JoinDayRow[]> {
  const saved = await typedRows<Record<string, unknown>>(
    t.ctx.database.db,
    sql`delete from activity_member_cohort_weeks where team_id = ${TEAM} returning *`,
  );
  try {
    return await read();
  } finally {
    for (const r of saved)
      await t.ctx.database.db
        .execute(sql`insert into activity_member_cohort_weeks (team_id, member_id, join_day, weeks, last_day)
        values (${r.team_id}, ${r.member_id}, ${r.join_day}, ${r.weeks}, ${r.last_day})`);
  }
}

beforeAll(async () => {
  t = await buildTestApp({}, { workers: false });
  await connectedWorkspace(t, TEAM, { timezone: TZ });
  today = localDay(new Date(), TZ);
}, 60_000);
afterAll(() => t?.close());

describe('cohort weeks kept by the rollups', () => {
  it('sets the bit of each week with activity, from messages, replies and reactions, and no other', async () => {
    await member('UA', 100);
    const first = tsOn(100); // week 0
    await apply([msg(first, 'UA'), msg(tsOn(90), 'UA')]); // weeks 0 and 1
    await apply([{ type: 'message', ts: tsOn(60), user: 'UA', text: 'r', thread_ts: first }]); // week 5
    await apply([
      {
        type: 'reaction_added',
        user: 'UA',
        reaction: 'eyes',
        item: { type: 'message', channel: C, ts: first },
        event_ts: tsOn(20),
      },
    ]); // week 11
    await apply([msg(tsOn(5), 'UA')]); // after the window: no bit
    expect(await weeksOf('UA')).toEqual({ join_day: addDays(today, -100), weeks: 1 | 2 | 32 | 2048 });
  });

  it('clears a bit when the week has no activity left (a deleted message, a removed reaction)', async () => {
    await member('UB', 50);
    const a = tsOn(49);
    const b = tsOn(40);
    await apply([msg(a, 'UB'), msg(b, 'UB')]);
    const at = tsOn(30);
    await apply([
      {
        type: 'reaction_added',
        user: 'UB',
        reaction: 'eyes',
        item: { type: 'message', channel: C, ts: a },
        event_ts: at,
      },
    ]);
    expect((await weeksOf('UB'))?.weeks).toBe(1 | 2 | 4);
    await apply([{ type: 'message', subtype: 'message_deleted', deleted_ts: b, event_ts: tsOn(29) }]);
    expect((await weeksOf('UB'))?.weeks).toBe(1 | 4);
    await apply([
      {
        type: 'reaction_removed',
        user: 'UB',
        reaction: 'eyes',
        item: { type: 'message', channel: C, ts: a },
        event_ts: tsOn(28),
      },
    ]);
    expect((await weeksOf('UB'))?.weeks).toBe(1);
  });

  it('a member with no activity in the window has no row; one whose join time changed is read from the days', async () => {
    await member('UC', 30);
    await apply([msg(tsOn(1), 'UD')]);
    expect(await weeksOf('UC')).toBeUndefined();
    await member('UE', 20);
    await apply([msg(tsOn(19), 'UE'), msg(tsOn(5), 'UE')]);
    expect((await weeksOf('UE'))?.join_day).toBe(addDays(today, -20));
    // The history import finds an earlier join: the row is for another join day until the member is active again.
    await t.ctx.database.db.transaction((tx) =>
      factsRepo.setJoinedAt(tx, TEAM, 'UE', new Date(Date.parse(`${addDays(today, -26)}T12:00:00Z`))),
    );
    expect((await weeksOf('UE'))?.join_day).toBe(addDays(today, -20));
    expect(sortRows(await read())).toEqual(sortRows(await readFromDailyAlone()));
    expect((await read()).filter((r) => r.day === addDays(today, -26))).toEqual(
      expect.arrayContaining([
        { day: addDays(today, -26), week: null, n: 1 },
        { day: addDays(today, -26), week: 1, n: 1 },
        { day: addDays(today, -26), week: 3, n: 1 },
      ]),
    );
  });

  it('the grid read through the rows equals the grid read from activity_member_daily; a rebuild gives the same rows', async () => {
    for (let i = 0; i < 12; i++) {
      const id = `UM${i}`;
      await member(id, 10 + i * 13);
      const events = [];
      for (let d = 10 + i * 13; d >= 0; d -= 3 + (i % 5)) events.push(msg(tsOn(d), id));
      await apply(events);
    }
    const got = sortRows(await read());
    expect(got.some((r) => r.week !== null && r.week > 0)).toBe(true);
    expect(got).toEqual(sortRows(await readFromDailyAlone()));
    const before = await typedRows(
      t.ctx.database.db,
      sql`select member_id, join_day::text, weeks, last_day::text from activity_member_cohort_weeks where team_id = ${TEAM} order by member_id`,
    );
    await t.ctx.database.db.transaction((tx) => rebuildCohortWeeks(tx, TEAM));
    const after = await typedRows(
      t.ctx.database.db,
      sql`select member_id, join_day::text, weeks, last_day::text from activity_member_cohort_weeks where team_id = ${TEAM} order by member_id`,
    );
    // The rebuild writes rows for every member with a join time (inactive ones too), and the same for the others.
    expect(after.filter((r) => before.some((b) => JSON.stringify(b) === JSON.stringify(r)))).toHaveLength(
      before.filter((b) => (b as { member_id: string }).member_id !== 'UE').length,
    );
    expect(sortRows(await read())).toEqual(got);
  });
});
