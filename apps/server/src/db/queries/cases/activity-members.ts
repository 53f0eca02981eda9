import { membersRepo, type MemberQuery } from '../../../modules/activity/members-ranking.ts';
import { bucketCsvLineSql } from '../../../modules/buckets/repo.ts';
import type { Db } from '../../client.ts';
import { AT, DAY, LATER, T, TW, type QueryCase } from './common.ts';
import { ID, seedMembers, seedStandingWindows } from './fixture.ts';

const file = 'activity-members';

/** Every member of T over seven days ending on DAY, most messages first: no filter, no fast path. */
const ALL: MemberQuery = {
  teamId: T,
  fromDay: '2026-01-09',
  toDay: DAY,
  channels: null,
  tags: null,
  levels: null,
  base: null,
  activity: null,
  search: null,
  memberIds: null,
  sort: { field: 'messages', direction: 'desc' },
};
/** Every filter at once: a few candidates, ranked alone. */
const FILTERED: MemberQuery = {
  ...ALL,
  channels: ['C1', 'C2'],
  channelCombiner: 'AND',
  tags: [ID],
  levels: ['regular', 'champion'],
  base: { kind: 'join', fromTs: AT, toTs: LATER },
  activity: {
    combiner: 'OR',
    conditions: [
      { column: 'messages', operator: '>', count: 2 },
      { column: 'reactions', operator: '=', count: 0 },
    ],
  },
  search: 'ada_',
  sort: { field: 'activity', direction: 'desc' },
};

/** Consumes an export that streams. */
async function drain(lines: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return out;
}

const page = (db: Db, q: MemberQuery, offset = 0) => membersRepo(db).page(q, 20, offset);

export const activityMembers: QueryCase[] = [
  { file, name: 'membersRepo.page', run: (db) => page(db, FILTERED) },
  { file, name: 'membersRepo.page (past the matches)', run: (db) => page(db, FILTERED, 20) },
  {
    file,
    name: 'membersRepo.page (whole workspace, ranked)',
    seed: seedMembers,
    run: (db) => page(db, ALL),
  },
  {
    file,
    name: 'membersRepo.page (by a profile column, descending)',
    seed: seedMembers,
    run: (db) => page(db, { ...ALL, sort: { field: 'email', direction: 'desc' } }),
  },
  {
    file,
    name: 'membersRepo.page (by activity over a standing window)',
    seed: seedStandingWindows,
    run: (db) => page(db, { ...ALL, teamId: TW, sort: { field: 'activity', direction: 'desc' } }),
  },
  {
    file,
    name: 'membersRepo.page (in slices)',
    seed: seedMembers,
    run: (db) => membersRepo(db, { slices: 2, sliceFromMembers: 1 }).page(ALL, 20, 0),
  },
  {
    file,
    name: 'membersRepo.matchesQuery',
    run: async (db) => db.execute(await membersRepo(db).matchesQuery({ ...ALL, search: 'ada', tags: [ID] })),
  },
  {
    file,
    name: 'membersRepo.exportRows',
    run: (db) =>
      membersRepo(db).exportRows({
        ...ALL,
        channels: ['C1'],
        sort: { field: 'real_name', direction: 'asc' },
      }),
  },
  {
    file,
    name: 'membersRepo.breakdown',
    run: (db) => membersRepo(db).breakdown({ ...ALL, tags: [ID] }, { byDay: false, limit: 50, offset: 0 }),
  },
  {
    file,
    name: 'membersRepo.breakdown (by day)',
    run: (db) =>
      membersRepo(db).breakdown(
        { ...ALL, channels: ['C1'], activity: FILTERED.activity },
        { byDay: true, limit: 50, offset: 50 },
      ),
  },
  {
    file,
    name: 'membersRepo.breakdownTextByDays',
    run: (db) =>
      drain(membersRepo(db).breakdownTextByDays({ ...ALL, memberIds: ['U1', 'U2'] }, bucketCsvLineSql)),
  },
];
