import { deliveryPostedRepo } from '../../../modules/delivery/posted-repo.ts';
import { T, type QueryCase } from './common.ts';
import { ID, seedReceipt } from './fixture.ts';

const file = 'delivery-posted';

export const deliveryPosted: QueryCase[] = [
  {
    file,
    name: 'deliveryPostedRepo.threadRoot',
    run: (db) => deliveryPostedRepo(db).threadRoot(T, 'C1', '1768478400.000300'),
  },
  {
    file,
    name: 'deliveryPostedRepo.postedMessages',
    seed: seedReceipt,
    run: (db) => deliveryPostedRepo(db).postedMessages(T, ID),
  },
];
