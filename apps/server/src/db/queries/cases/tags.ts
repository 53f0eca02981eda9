import { tagsRepo } from '../../../modules/tags/repo.ts';
import { T, type QueryCase } from './common.ts';

export const tags: QueryCase[] = [
  { file: 'tags', name: 'tagsRepo.list', run: (db) => tagsRepo(db).list(T) },
  { file: 'tags', name: 'tagsRepo.existing', run: (db) => tagsRepo(db).existing(T, [1, 2]) },
  { file: 'tags', name: 'tagsRepo.ofMembers', run: (db) => tagsRepo(db).ofMembers(T, ['U1']) },
];
