import { digestRepo } from '../../../modules/digest/repo.ts';
import { AT, T, type QueryCase } from './common.ts';
import { USER } from './fixture.ts';

const file = 'digest';
const WEEK = '2026-01-12';
const WEEK_BEFORE = new Date('2026-01-08T12:00:00.000Z');

export const digest: QueryCase[] = [
  { file, name: 'digestRepo.subscription', run: (db) => digestRepo(db).subscription(T, USER) },
  {
    file,
    name: 'digestRepo.subscribe',
    run: (db) => digestRepo(db).subscribe(T, USER, true, false, { day: 'mon', hour: 9 }),
  },
  {
    file,
    name: 'digestRepo.subscribeIfNew',
    run: (db) => digestRepo(db).subscribeIfNew(T, USER, true, true),
  },
  { file, name: 'digestRepo.active', run: (db) => digestRepo(db).active() },
  { file, name: 'digestRepo.claim', run: (db) => digestRepo(db).claim(T, USER, WEEK) },
  { file, name: 'digestRepo.reclaimStale', run: (db) => digestRepo(db).reclaimStale(600, 3) },
  { file, name: 'digestRepo.delivery', run: (db) => digestRepo(db).delivery(T, USER, WEEK) },
  { file, name: 'digestRepo.markEmailSent', run: (db) => digestRepo(db).markEmailSent(T, USER, WEEK) },
  {
    file,
    name: 'digestRepo.markSlackQueued',
    run: (db) => digestRepo(db).markSlackQueued(T, USER, WEEK, 41),
  },
  { file, name: 'digestRepo.finish', run: (db) => digestRepo(db).finish(T, USER, WEEK, null) },
  { file, name: 'digestRepo.fail', run: (db) => digestRepo(db).fail(T, USER, WEEK, 'smtp refused') },
  { file, name: 'digestRepo.history', run: (db) => digestRepo(db).history(T, USER, 10) },
  { file, name: 'digestRepo.recipient', run: (db) => digestRepo(db).recipient(T, USER) },
  { file, name: 'digestRepo.joined', run: (db) => digestRepo(db).joined(T, WEEK_BEFORE, AT, 10) },
  { file, name: 'digestRepo.sends', run: (db) => digestRepo(db).sends(T, WEEK_BEFORE, AT, 5) },
];
