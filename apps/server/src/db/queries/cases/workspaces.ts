import { workspacesRepo } from '../../../modules/workspaces/repo.ts';
import { T, type QueryCase } from './common.ts';

export const workspaces: QueryCase[] = [
  { file: 'workspaces', name: 'workspacesRepo.timezones', run: (db) => workspacesRepo(db).timezones([T]) },
];
