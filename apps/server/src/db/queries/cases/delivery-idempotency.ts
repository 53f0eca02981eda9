import { idempotencyRepo } from '../../../modules/delivery/idempotency-repo.ts';
import { T, type QueryCase } from './common.ts';
import { USER } from './fixture.ts';

const file = 'delivery-idempotency';

/** Ada's Idempotency-Key in T. */
const KEY = { teamId: T, userId: USER, key: 'snapshot-key-1' };

export const deliveryIdempotency: QueryCase[] = [
  {
    file,
    name: 'idempotencyRepo.claim',
    run: (db) => idempotencyRepo(db).claim(KEY, 'request-hash-1', 'token-1', 60),
  },
  { file, name: 'idempotencyRepo.find', run: (db) => idempotencyRepo(db).find(KEY) },
  {
    file,
    name: 'idempotencyRepo.answer',
    run: (db) => idempotencyRepo(db).answer(KEY, 'token-1', 200, { receipt_id: 901 }),
  },
  { file, name: 'idempotencyRepo.release', run: (db) => idempotencyRepo(db).release(KEY, 'token-1') },
];
