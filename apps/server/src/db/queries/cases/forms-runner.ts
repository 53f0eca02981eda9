import { formRunnerRepo } from '../../../modules/forms/runner-repo.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';
import { AUDIENCE, ID, seedForm, seedInstance } from './fixture.ts';

const file = 'forms-runner';

export const formsRunner: QueryCase[] = [
  {
    file,
    name: 'formRunnerRepo.lockDueForms',
    run: (db) => db.transaction((tx) => formRunnerRepo(db).lockDueForms(tx, 10, AT)),
  },
  {
    file,
    name: 'formRunnerRepo.addInstances',
    seed: seedForm,
    run: (db) =>
      db.transaction((tx) =>
        formRunnerRepo(db).addInstances(tx, [
          {
            formId: ID,
            teamId: T,
            key: '2026-01-15T15:00',
            at: '2026-01-15T15:00:00.000Z',
            audience: AUDIENCE,
            status: 'due',
          },
          {
            formId: ID,
            teamId: T,
            key: '2026-01-14T15:00',
            at: '2026-01-14T15:00:00.000Z',
            audience: AUDIENCE,
            status: 'skipped',
          },
        ]),
      ),
  },
  {
    file,
    name: 'formRunnerRepo.advanceMany',
    run: (db) =>
      db.transaction((tx) =>
        formRunnerRepo(db).advanceMany(tx, [
          { id: ID, next: '2026-01-16T15:00:00.000Z', ranAt: AT.toISOString() },
          { id: 902, next: null, ranAt: AT.toISOString() },
        ]),
      ),
  },
  {
    file,
    name: 'formRunnerRepo.insertHeldInstance',
    seed: seedForm,
    run: (db) =>
      formRunnerRepo(db).insertHeldInstance({
        formId: ID,
        teamId: T,
        key: 'send:snapshot',
        at: AT,
        audience: AUDIENCE,
        leaseMs: 60_000,
      }),
  },
  {
    file,
    name: 'formRunnerRepo.holdInstances',
    seed: seedForm,
    run: (db) =>
      formRunnerRepo(db).holdInstances(
        [
          { formId: ID, teamId: T, key: 'workflow-step:901', audience: AUDIENCE },
          { formId: ID, teamId: T, key: 'workflow-step:902', audience: AUDIENCE },
        ],
        AT,
        60_000,
      ),
  },
  {
    file,
    name: 'formRunnerRepo.finishInstances',
    run: (db) =>
      formRunnerRepo(db).finishInstances([
        { id: ID, status: 'sent', receiptId: ID, recipients: 2, error: null },
        { id: 902, status: 'failed', receiptId: null, recipients: 0, error: 'daily_limit' },
      ]),
  },
  {
    file,
    name: 'formRunnerRepo.claimDueInstances',
    seed: seedInstance,
    run: (db) => formRunnerRepo(db).claimDueInstances(10, AT, 60_000),
  },
  {
    file,
    name: 'formRunnerRepo.releaseInstance',
    run: (db) => formRunnerRepo(db).releaseInstance(ID, LATER),
  },
  {
    file,
    name: 'formRunnerRepo.finishInstance',
    run: (db) =>
      formRunnerRepo(db).finishInstance(ID, { status: 'sent', receiptId: ID, recipients: 2, error: null }),
  },
];
