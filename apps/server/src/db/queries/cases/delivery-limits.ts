import type { NewReceipt } from '../../../modules/delivery/repo.ts';
import { limitsRepo } from '../../../modules/delivery/limits-repo.ts';
import type { Db } from '../../client.ts';
import type { Tx } from '../../sql.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';
import { ID, MESSAGE } from './fixture.ts';

const file = 'delivery-limits';

/** Runs a method in the transaction the sends of a workspace run them in. */
const inTx = (db: Db, f: (tx: Tx) => Promise<unknown>) => db.transaction((tx) => f(tx));

/** A workflow step's per-member limit. */
const SCOPE = 'workflow:901:0';
const REFUSED: NewReceipt = {
  teamId: T,
  actionType: 'Scheduled Message',
  description: 'Monday note',
  sender: 'bot',
  adminUser: null,
  message: MESSAGE,
  createdBy: null,
  idempotencyKey: 'action-run:904',
};

export const deliveryLimits: QueryCase[] = [
  {
    file,
    name: 'limitsRepo.reachableMembers',
    run: (db) => inTx(db, (tx) => limitsRepo.reachableMembers(tx, T)),
  },
  { file, name: 'limitsRepo.usedToday', run: (db) => inTx(db, (tx) => limitsRepo.usedToday(tx, T)) },
  {
    file,
    name: 'limitsRepo.receiptsByKey',
    run: (db) => inTx(db, (tx) => limitsRepo.receiptsByKey(tx, ['action-run:901', 'action-run:904'])),
  },
  {
    file,
    name: 'limitsRepo.receiptErrors',
    run: (db) => inTx(db, (tx) => limitsRepo.receiptErrors(tx, T, [ID, 902])),
  },
  {
    file,
    name: 'limitsRepo.refusedReceipt',
    run: (db) => inTx(db, (tx) => limitsRepo.refusedReceipt(tx, REFUSED, 'daily_limit')),
  },
  {
    file,
    name: 'limitsRepo.reachedSince',
    run: (db) => inTx(db, (tx) => limitsRepo.reachedSince(tx, T, SCOPE, ['U1', 'U2'], AT)),
  },
  {
    file,
    name: 'limitsRepo.markReached',
    run: (db) => inTx(db, (tx) => limitsRepo.markReached(tx, T, SCOPE, ['U1', 'U2'], LATER)),
  },
];
