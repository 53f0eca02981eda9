import { deliveryRepo, type NewReceipt } from '../../../modules/delivery/repo.ts';
import { T, type QueryCase } from './common.ts';
import { MESSAGE, USER } from './fixture.ts';

const file = 'delivery';

const receipt = (key: string): NewReceipt & { idempotencyKey: string } => ({
  teamId: T,
  actionType: 'Direct Message',
  description: 'Snapshot',
  sender: 'admin',
  adminUser: 'U1',
  message: MESSAGE,
  createdBy: USER,
  idempotencyKey: key,
});
const RECIPIENTS = { members: ['U1', 'U2', 'U1'], channels: ['C1'] };

export const delivery: QueryCase[] = [
  {
    file,
    name: 'deliveryRepo.createReceipt',
    run: (db) => deliveryRepo(db).createReceipt(receipt('snapshot-send-1'), RECIPIENTS),
  },
  {
    file,
    name: 'deliveryRepo.createReceipt (a key already used: its first receipt)',
    run: (db) => deliveryRepo(db).createReceipt(receipt('snapshot-send-1'), RECIPIENTS),
  },
  {
    file,
    name: 'deliveryRepo.createKeyedReceipts',
    run: (db) =>
      deliveryRepo(db).createKeyedReceipts([
        { receipt: receipt('action-run:901'), recipients: RECIPIENTS },
        { receipt: receipt('action-run:902'), recipients: { members: [], channels: ['C1'] } },
      ]),
  },
  {
    file,
    name: 'deliveryRepo.createKeyedReceipts (a key already used: its first receipt)',
    run: (db) =>
      deliveryRepo(db).createKeyedReceipts([
        { receipt: receipt('action-run:902'), recipients: { members: [], channels: ['C1'] } },
        { receipt: receipt('action-run:903'), recipients: { members: ['U2'], channels: [] } },
      ]),
  },
];
