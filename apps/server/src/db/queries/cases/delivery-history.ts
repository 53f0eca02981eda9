import { deliveryHistoryRepo } from '../../../modules/delivery/history-repo.ts';
import { T, type QueryCase } from './common.ts';
import { ID, seedReceipt, seedRecipient } from './fixture.ts';

const file = 'delivery-history';

export const deliveryHistory: QueryCase[] = [
  {
    file,
    name: 'deliveryHistoryRepo.listReceipts',
    run: (db) => deliveryHistoryRepo(db).listReceipts(T, 50),
  },
  {
    file,
    name: 'deliveryHistoryRepo.findReceipt',
    seed: seedReceipt,
    run: (db) => deliveryHistoryRepo(db).findReceipt(T, ID),
  },
  {
    file,
    name: 'deliveryHistoryRepo.failureReasons',
    run: (db) => deliveryHistoryRepo(db).failureReasons(ID),
  },
  {
    file,
    name: 'deliveryHistoryRepo.recipients',
    run: (db) => deliveryHistoryRepo(db).recipients(ID, 'total'),
  },
  {
    file,
    name: 'deliveryHistoryRepo.recipients (the sent ones)',
    run: (db) => deliveryHistoryRepo(db).recipients(ID, 'successful'),
  },
  {
    file,
    name: 'deliveryHistoryRepo.recipients (the failed ones)',
    run: (db) => deliveryHistoryRepo(db).recipients(ID, 'failed'),
  },
  {
    file,
    name: 'deliveryHistoryRepo.requeueRetryable',
    seed: (db) => seedRecipient(db, 902, 'failed', { retryable: 1, error: 'ratelimited' }),
    run: (db) => deliveryHistoryRepo(db).requeueRetryable(ID),
  },
];
