import { repliesRepo } from '../../../modules/delivery/replies.ts';
import type { Db } from '../../client.ts';
import * as schema from '../../schema.ts';
import { AT, T, type QueryCase } from './common.ts';
import { ID, seedReceipt } from './fixture.ts';

const file = 'delivery-replies';

/** U1's reply 901 to receipt 901, in their DM with the bot: a list of replies then reads their names. */
async function seedReply(db: Db) {
  await seedReceipt(db);
  await db
    .insert(schema.deliveryReplies)
    .values({
      id: ID,
      teamId: T,
      channelId: 'D1',
      ts: '1768478400.000400',
      memberId: 'U1',
      receiptId: ID,
      recipientId: ID,
      text: 'Thanks!',
      sentAt: AT,
    })
    .onConflictDoNothing();
}

export const deliveryReplies: QueryCase[] = [
  { file, name: 'repliesRepo.ofReceipt', seed: seedReply, run: (db) => repliesRepo(db).ofReceipt(T, ID, 50) },
  { file, name: 'repliesRepo.ofMember', seed: seedReply, run: (db) => repliesRepo(db).ofMember(T, 'U1', 50) },
  { file, name: 'repliesRepo.counts', run: (db) => repliesRepo(db).counts([ID, 902]) },
];
