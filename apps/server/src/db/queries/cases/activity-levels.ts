import {
  levelChangesBetween,
  levelChangesOfDays,
  levelsRepo,
  recomputeLevels,
  refreshLevels,
} from '../../../modules/activity/levels.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';

export const activityLevels: QueryCase[] = [
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
    file: 'activity-levels',
    name: 'refreshLevels',
    run: (db) => refreshLevels(db, new Map([[T, 'Europe/Berlin']]), LATER, true),
  },
  {
    file: 'activity-levels',
    name: 'levelChangesOfDays',
    run: (db) =>
      levelChangesOfDays(
        db,
        T,
        { fromDay: '2026-01-09', toDay: '2026-01-15' },
        { from: ['champion', 'regular'], to: ['slipping'] },
        10,
      ),
  },
];
