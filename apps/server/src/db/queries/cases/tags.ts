import { tagsRepo } from '../../../modules/tags/repo.ts';
import { T, type QueryCase } from './common.ts';
import { ID, seedTag } from './fixture.ts';

const file = 'tags';

export const tags: QueryCase[] = [
  { file, name: 'tagsRepo.list', run: (db) => tagsRepo(db).list(T) },
  { file, name: 'tagsRepo.existing', run: (db) => tagsRepo(db).existing(T, [1, 2]) },
  { file, name: 'tagsRepo.ofMembers', run: (db) => tagsRepo(db).ofMembers(T, ['U1']) },
  { file, name: 'tagsRepo.ofMembers (every tagged member)', run: (db) => tagsRepo(db).ofMembers(T, null) },
  { file, name: 'tagsRepo.create', run: (db) => tagsRepo(db).create(T, 'Champions') },
  { file, name: 'tagsRepo.findByName', run: (db) => tagsRepo(db).findByName(T, 'champions') },
  { file, name: 'tagsRepo.existingMembers', run: (db) => tagsRepo(db).existingMembers(T, ['U1', 'U2']) },
  { file, name: 'tagsRepo.assign', seed: seedTag, run: (db) => tagsRepo(db).assign(T, ['U1', 'U2'], [ID]) },
  { file, name: 'tagsRepo.unassign', run: (db) => tagsRepo(db).unassign(T, 'U2', ID) },
];
