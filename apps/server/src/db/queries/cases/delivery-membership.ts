import { membershipRepo } from '../../../modules/delivery/membership-repo.ts';
import { T, type QueryCase } from './common.ts';

const file = 'delivery-membership';

export const deliveryMembership: QueryCase[] = [
  {
    file,
    name: 'membershipRepo.storedChannels',
    run: (db) => db.transaction((tx) => membershipRepo.storedChannels(tx, T, 'U1', ['C1', 'C2', 'C1'])),
  },
];
