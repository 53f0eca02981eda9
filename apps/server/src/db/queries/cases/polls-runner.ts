import { pollRunnerRepo } from '../../../modules/polls/runner-repo.ts';
import { AT, T, type QueryCase } from './common.ts';
import { ID, seedPoll } from './fixture.ts';

const file = 'polls-runner';

const NOW = AT.getTime();

export const pollsRunner: QueryCase[] = [
  {
    file,
    name: 'pollRunnerRepo.setReceipt',
    seed: seedPoll,
    run: (db) => pollRunnerRepo(db).setReceipt(ID, ID),
  },
  { file, name: 'pollRunnerRepo.release', run: (db) => pollRunnerRepo(db).release(ID) },
  { file, name: 'pollRunnerRepo.claimToPost', run: (db) => pollRunnerRepo(db).claimToPost(NOW, 60_000) },
  { file, name: 'pollRunnerRepo.claimToClose', run: (db) => pollRunnerRepo(db).claimToClose(NOW, 60_000) },
  {
    file,
    name: 'pollRunnerRepo.claimToClose (one poll)',
    run: (db) => pollRunnerRepo(db).claimToClose(NOW, 60_000, { pollId: ID, limit: 1 }),
  },
  { file, name: 'pollRunnerRepo.markUnposted', run: (db) => pollRunnerRepo(db).markUnposted(999, NOW) },
  { file, name: 'pollRunnerRepo.markFinal', run: (db) => pollRunnerRepo(db).markFinal(ID, NOW) },
  { file, name: 'pollRunnerRepo.deletedIds', run: (db) => pollRunnerRepo(db).deletedIds() },
  { file, name: 'pollRunnerRepo.messages', run: (db) => pollRunnerRepo(db).messages(ID) },
  {
    file,
    name: 'pollRunnerRepo.saveMessages',
    seed: seedPoll,
    run: (db) =>
      db.transaction((tx) =>
        pollRunnerRepo(db).saveMessages(tx, ID, T, [
          { channel: 'C1', ts: '1768478400.000500' },
          { channel: 'C2', ts: '1768478400.000600' },
        ]),
      ),
  },
];
