import { deliveryRunnerRepo, type ClaimedRecipient } from '../../../modules/delivery/runner-repo.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';
import { ID, MESSAGE, seedReceipt, seedRecipient } from './fixture.ts';

const file = 'delivery-runner';

/** Recipient `id` of receipt 901 as a worker claimed it (its first attempt). */
const claimed = (id: number, kind: 'member' | 'channel', targetId: string): ClaimedRecipient => ({
  id,
  receipt_id: ID,
  team_id: T,
  kind,
  target_id: targetId,
  attempts: 1,
  uncertain: 0,
  channel_id: null,
  first_attempt_at: AT.toISOString(),
  sender: 'bot',
  admin_user: null,
  message: MESSAGE,
  deactivated: false,
});
const MEMBER = claimed(ID, 'member', 'U1');
const CHANNEL = claimed(902, 'channel', 'C1');

export const deliveryRunner: QueryCase[] = [
  {
    file,
    name: 'deliveryRunnerRepo.claim',
    seed: seedReceipt,
    run: (db) => deliveryRunnerRepo(db).claim(T, 30),
  },
  {
    file,
    name: 'deliveryRunnerRepo.release',
    seed: (db) => seedRecipient(db, ID, 'sending'),
    run: (db) => deliveryRunnerRepo(db).release(MEMBER, LATER),
  },
  {
    file,
    name: 'deliveryRunnerRepo.noteChannel',
    run: (db) => deliveryRunnerRepo(db).noteChannel(MEMBER, 'D1'),
  },
  {
    file,
    name: 'deliveryRunnerRepo.retryLater',
    seed: (db) => seedRecipient(db, ID, 'sending'),
    run: (db) =>
      deliveryRunnerRepo(db).retryLater(MEMBER, {
        dueAt: LATER,
        error: 'ratelimited',
        uncertain: false,
        countAttempt: false,
      }),
  },
  {
    file,
    name: 'deliveryRunnerRepo.markSent',
    seed: (db) => seedRecipient(db, ID, 'sending'),
    run: (db) => deliveryRunnerRepo(db).markSent(MEMBER, 'D1', '1768478400.000300'),
  },
  {
    file,
    name: 'deliveryRunnerRepo.markFailed',
    seed: (db) => seedRecipient(db, 902, 'sending'),
    run: (db) => deliveryRunnerRepo(db).markFailed(CHANNEL, 'channel_not_found', false),
  },
  { file, name: 'deliveryRunnerRepo.nextDueMs', run: (db) => deliveryRunnerRepo(db).nextDueMs(T) },
  {
    file,
    name: 'deliveryRunnerRepo.teamsWithDueWork',
    run: (db) => deliveryRunnerRepo(db).teamsWithDueWork(),
  },
];
