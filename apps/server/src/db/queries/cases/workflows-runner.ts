import { workflowRunnerRepo } from '../../../modules/workflows/runner-repo.ts';
import { AT, LATER, type QueryCase } from './common.ts';
import { ID, seedWorkflow } from './fixture.ts';

const file = 'workflows-runner';

export const workflowsRunner: QueryCase[] = [
  {
    file,
    name: 'workflowRunnerRepo.claimDueSteps',
    seed: seedWorkflow,
    run: (db) => workflowRunnerRepo(db).claimDueSteps(10, AT, 60_000),
  },
  { file, name: 'workflowRunnerRepo.countDueSteps', run: (db) => workflowRunnerRepo(db).countDueSteps(AT) },
  {
    file,
    name: 'workflowRunnerRepo.releaseSteps',
    run: (db) => workflowRunnerRepo(db).releaseSteps([ID], LATER),
  },
  {
    file,
    name: 'workflowRunnerRepo.finishSteps',
    seed: seedWorkflow,
    run: (db) =>
      workflowRunnerRepo(db).finishSteps(
        [
          { id: ID, status: 'sent', receiptId: ID, formInstanceId: null, error: null },
          { id: 902, status: 'failed', receiptId: null, formInstanceId: null, error: 'channel_not_found' },
        ],
        AT,
      ),
  },
];
