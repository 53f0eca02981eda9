import { memberRepo } from '../../../modules/member-detail/repo.ts';
import { AT, T, type QueryCase } from './common.ts';

const file = 'member-detail';

export const memberDetail: QueryCase[] = [
  { file, name: 'memberRepo.exists', run: (db) => memberRepo(db).exists(T, 'U1') },
  { file, name: 'memberRepo.channels', run: (db) => memberRepo(db).channels(T, 'U1') },
  { file, name: 'memberRepo.actions', run: (db) => memberRepo(db).actions(T, 'U1', AT, 50) },
  { file, name: 'memberRepo.memberNames', run: (db) => memberRepo(db).memberNames(T, ['U1', 'U2']) },
  { file, name: 'memberRepo.channelNames', run: (db) => memberRepo(db).channelNames(T, ['C1']) },
];
