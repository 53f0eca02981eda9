import { backfillRepo } from '../../../modules/workspace-data/history-import-repo.ts';
import { AT, T, type QueryCase } from './common.ts';

const file = 'workspace-data-history-import';

export const workspaceDataHistoryImport: QueryCase[] = [
  { file, name: 'backfillRepo.get', run: (db) => backfillRepo(db).get(T) },
  { file, name: 'backfillRepo.start', run: (db) => backfillRepo(db).start(T, 30) },
  { file, name: 'backfillRepo.lease', run: (db) => backfillRepo(db).lease(T, false) },
  { file, name: 'backfillRepo.lease (renewed by its runner)', run: (db) => backfillRepo(db).lease(T, true) },
  {
    file,
    name: 'backfillRepo.saveStep',
    run: (db) =>
      db.transaction((tx) =>
        backfillRepo(db).saveStep(tx, T, {
          requests: 12,
          rateLimited: 1,
          messages: 340,
          channelsTotal: 3,
          channelsDone: 1,
          state: {
            phase: 'history',
            channels: [{ id: 'C1', general: true }],
            ci: 0,
            threads: [],
            oldest: 1765886400,
          },
        }),
      ),
  },
  { file, name: 'backfillRepo.release', run: (db) => backfillRepo(db).release(T) },
  { file, name: 'backfillRepo.listRunning', run: (db) => backfillRepo(db).listRunning() },
  {
    file,
    name: 'backfillRepo.save',
    run: (db) => backfillRepo(db).save(T, { status: 'done', finishedAt: AT, error: null }),
  },
];
