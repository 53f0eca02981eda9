import { memberRepo } from '../../../modules/member-detail/repo.ts';
import { AT, T, type QueryCase } from './common.ts';

export const memberDetail: QueryCase[] = [
  { file: 'member-detail', name: 'memberRepo.exists', run: (db) => memberRepo(db).exists(T, 'U1') },
  { file: 'member-detail', name: 'memberRepo.channels', run: (db) => memberRepo(db).channels(T, 'U1') },
  { file: 'member-detail', name: 'memberRepo.actions', run: (db) => memberRepo(db).actions(T, 'U1', AT, 50) },
];
