import { workflowTriggersRepo } from '../../../modules/workflows/triggers-repo.ts';
import type { Db } from '../../client.ts';
import type { Tx } from '../../sql.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';
import { ID, seedWorkflow } from './fixture.ts';

const file = 'workflows-triggers';

/** Runs a method in the caller's transaction (an event batch's, or a trigger's look). */
const inTx = (db: Db, f: (tx: Tx) => Promise<unknown>) => db.transaction((tx) => f(tx));

export const workflowsTriggers: QueryCase[] = [
  {
    file,
    name: 'workflowTriggersRepo.fire',
    seed: seedWorkflow,
    run: (db) =>
      inTx(db, (tx) =>
        workflowTriggersRepo.fire(tx, [
          { workflowId: ID, key: 'join:U2', memberId: 'U2', at: AT.toISOString() },
          { workflowId: ID, key: 'time', memberId: null, at: LATER.toISOString() },
        ]),
      ),
  },
  {
    file,
    name: 'workflowTriggersRepo.activeOfType',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.activeOfType(tx, T, 'workspace_join')),
  },
  {
    file,
    name: 'workflowTriggersRepo.activeOfType (a channel join: of this channel)',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.activeOfType(tx, T, 'channel_join', 'C1')),
  },
  {
    file,
    name: 'workflowTriggersRepo.isPerson',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.isPerson(tx, T, 'U1')),
  },
  {
    file,
    name: 'workflowTriggersRepo.lockDueTimeTriggers',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.lockDueTimeTriggers(tx, AT, 10)),
  },
  {
    file,
    name: 'workflowTriggersRepo.markFired',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.markFired(tx, [ID, 902], AT)),
  },
  {
    file,
    name: 'workflowTriggersRepo.lockActivityTriggers',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.lockActivityTriggers(tx, AT, 10)),
  },
  {
    file,
    name: 'workflowTriggersRepo.lockActivityTriggers (one workflow)',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.lockActivityTriggers(tx, AT, 1, ID)),
  },
  {
    file,
    name: 'workflowTriggersRepo.lockActivityTriggers (members just changed level)',
    run: (db) =>
      inTx(db, (tx) =>
        workflowTriggersRepo.lockActivityTriggers(tx, AT, 10, undefined, { teams: [T], at: LATER }),
      ),
  },
  {
    file,
    name: 'workflowTriggersRepo.markScanned',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.markScanned(tx, ID, LATER)),
  },
  {
    file,
    name: 'workflowTriggersRepo.crossedInactivity',
    run: (db) => inTx(db, (tx) => workflowTriggersRepo.crossedInactivity(tx, T, 30, AT, LATER)),
  },
];
