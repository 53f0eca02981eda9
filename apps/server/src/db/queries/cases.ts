import type { Db } from '../client.ts';
import { levelChangesBetween, levelsRepo, recomputeLevels } from '../../modules/activity/levels.ts';
import { directoryRepo } from '../../modules/directory/repo.ts';
import { memberRepo } from '../../modules/member-detail/repo.ts';
import { notificationsRepo } from '../../modules/notifications/repo.ts';
import { tagsRepo } from '../../modules/tags/repo.ts';
import { workspacesRepo } from '../../modules/workspaces/repo.ts';

/**
 * The repository statements whose SQL is kept in this folder (one `<file>.sql` per group), as the repositories
 * send it: queries.test.ts calls each case on an empty migrated database and writes down every statement it
 * sends, with its parameters. A change to one of these statements shows in review as a diff of its .sql file.
 * Arguments are fixed, so the files change only when the SQL does. Add a case for a statement worth watching.
 */
export type QueryCase = { file: string; name: string; run(db: Db): Promise<unknown> };

const T = 'T0SNAPSHOT';
const AT = new Date('2026-01-15T12:00:00.000Z');
const LATER = new Date('2026-01-15T12:05:00.000Z');

export const QUERY_CASES: QueryCase[] = [
  {
    file: 'activity-levels',
    name: 'levelsRepo.ofMembers',
    run: (db) => levelsRepo(db).ofMembers(T, ['U1', 'U2']),
  },
  { file: 'activity-levels', name: 'levelsRepo.ofMember', run: (db) => levelsRepo(db).ofMember(T, 'U1') },
  { file: 'activity-levels', name: 'levelsRepo.counts', run: (db) => levelsRepo(db).counts(T) },
  {
    file: 'activity-levels',
    name: 'levelChangesBetween',
    run: (db) => levelChangesBetween(db, T, 'slipping', AT, LATER),
  },
  {
    file: 'activity-levels',
    name: 'recomputeLevels',
    run: (db) => db.transaction((tx) => recomputeLevels(tx, T, 'Europe/Berlin', '2026-01-15', AT)),
  },
  {
    file: 'directory',
    name: 'directoryRepo.memberNames',
    run: (db) => directoryRepo(db).memberNames(T, ['U1']),
  },
  {
    file: 'directory',
    name: 'directoryRepo.searchMembers',
    run: (db) => directoryRepo(db).searchMembers(T, 'ada', { limit: 10, includeLeft: false }),
  },
  {
    file: 'directory',
    name: 'directoryRepo.lookupMembers',
    run: (db) => directoryRepo(db).lookupMembers(T, ['U1'], ['ada@example.com']),
  },
  { file: 'directory', name: 'directoryRepo.channels', run: (db) => directoryRepo(db).channels(T) },
  { file: 'member-detail', name: 'memberRepo.exists', run: (db) => memberRepo(db).exists(T, 'U1') },
  { file: 'member-detail', name: 'memberRepo.channels', run: (db) => memberRepo(db).channels(T, 'U1') },
  { file: 'member-detail', name: 'memberRepo.actions', run: (db) => memberRepo(db).actions(T, 'U1', AT, 50) },
  {
    file: 'notifications',
    name: 'notificationsRepo.page',
    run: (db) => notificationsRepo(db).page('1', 20, null),
  },
  { file: 'notifications', name: 'notificationsRepo.unread', run: (db) => notificationsRepo(db).unread('1') },
  { file: 'tags', name: 'tagsRepo.list', run: (db) => tagsRepo(db).list(T) },
  { file: 'tags', name: 'tagsRepo.existing', run: (db) => tagsRepo(db).existing(T, [1, 2]) },
  { file: 'tags', name: 'tagsRepo.ofMembers', run: (db) => tagsRepo(db).ofMembers(T, ['U1']) },
  { file: 'workspaces', name: 'workspacesRepo.timezones', run: (db) => workspacesRepo(db).timezones([T]) },
];
