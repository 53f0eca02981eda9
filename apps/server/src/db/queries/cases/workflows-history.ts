import { workflowHistoryRepo } from '../../../modules/workflows/history-repo.ts';
import { type QueryCase } from './common.ts';
import { ID, seedWorkflow } from './fixture.ts';

const file = 'workflows-history';

export const workflowsHistory: QueryCase[] = [
  {
    file,
    name: 'workflowHistoryRepo.counts',
    seed: seedWorkflow,
    run: (db) => workflowHistoryRepo(db).counts([ID, 902]),
  },
  { file, name: 'workflowHistoryRepo.triggers', run: (db) => workflowHistoryRepo(db).triggers(ID) },
  { file, name: 'workflowHistoryRepo.steps', run: (db) => workflowHistoryRepo(db).steps(ID, 0) },
];
