import { formResponsesRepo } from '../../../modules/forms/responses-repo.ts';
import { T, type QueryCase } from './common.ts';
import { ID, seedInstance } from './fixture.ts';

const file = 'forms-responses';

export const formsResponses: QueryCase[] = [
  { file, name: 'formResponsesRepo.isPerson', run: (db) => formResponsesRepo(db).isPerson(T, 'U2') },
  { file, name: 'formResponsesRepo.reached', run: (db) => formResponsesRepo(db).reached(T, ID, 'U2') },
  {
    file,
    name: 'formResponsesRepo.saveResponse',
    seed: seedInstance,
    run: (db) =>
      formResponsesRepo(db).saveResponse({
        instanceId: ID,
        teamId: T,
        memberId: 'U2',
        answers: [{ question: 'Rating', answer: '4' }],
      }),
  },
  {
    file,
    name: 'formResponsesRepo.setAckReceipt',
    run: (db) => formResponsesRepo(db).setAckReceipt(ID, 902),
  },
  { file, name: 'formResponsesRepo.responses', run: (db) => formResponsesRepo(db).responses(T, ID) },
];
