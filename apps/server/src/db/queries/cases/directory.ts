import { directoryRepo } from '../../../modules/directory/repo.ts';
import { T, type QueryCase } from './common.ts';

export const directory: QueryCase[] = [
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
];
