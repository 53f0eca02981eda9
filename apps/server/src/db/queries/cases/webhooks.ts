import { webhooksRepo } from '../../../modules/webhooks/repo.ts';
import { LATER, T, type QueryCase } from './common.ts';
import { ID, USER, seedWebhook } from './fixture.ts';

const file = 'webhooks';

export const webhooks: QueryCase[] = [
  {
    file,
    name: 'webhooksRepo.insertSubscription',
    run: (db) =>
      webhooksRepo(db).insertSubscription({
        teamId: T,
        url: 'https://example.com/hook',
        events: ['member.joined', 'member.left'],
        secretSealed: 'sealed',
        createdBy: USER,
      }),
  },
  { file, name: 'webhooksRepo.list', run: (db) => webhooksRepo(db).list(T) },
  { file, name: 'webhooksRepo.find', seed: seedWebhook, run: (db) => webhooksRepo(db).find(T, ID) },
  {
    file,
    name: 'webhooksRepo.update',
    run: (db) => webhooksRepo(db).update(T, ID, { enabled: true, events: ['member.joined'] }),
  },
  { file, name: 'webhooksRepo.remove', run: (db) => webhooksRepo(db).remove(T, 999) },
  { file, name: 'webhooksRepo.deliveries', run: (db) => webhooksRepo(db).deliveries(ID, 20) },
  { file, name: 'webhooksRepo.delivery', run: (db) => webhooksRepo(db).delivery(ID, ID) },
  { file, name: 'webhooksRepo.replay', seed: seedWebhook, run: (db) => webhooksRepo(db).replay(ID, ID) },
  {
    file,
    name: 'webhooksRepo.insertEvent',
    run: (db) =>
      db.transaction((tx) =>
        webhooksRepo(db).insertEvent(tx, {
          id: 'evt-2',
          teamId: T,
          type: 'member.joined',
          data: { member_id: 'U2' },
          dedupeKey: 'member.joined:U2',
        }),
      ),
  },
  { file, name: 'webhooksRepo.claim', seed: seedWebhook, run: (db) => webhooksRepo(db).claim(ID, 30_000) },
  { file, name: 'webhooksRepo.claimRenew', run: (db) => webhooksRepo(db).claimRenew(ID, 30_000) },
  { file, name: 'webhooksRepo.release', run: (db) => webhooksRepo(db).release(ID) },
  { file, name: 'webhooksRepo.head', run: (db) => webhooksRepo(db).head(ID) },
  {
    file,
    name: 'webhooksRepo.recordAttempt',
    run: (db) =>
      webhooksRepo(db).recordAttempt(ID, {
        status: 'pending',
        responseCode: 503,
        error: 'Service Unavailable',
        durationMs: 120,
        nextAttemptAt: LATER,
      }),
  },
  { file, name: 'webhooksRepo.prune', run: (db) => webhooksRepo(db).prune(30) },
  { file, name: 'webhooksRepo.dueSubscriptions', run: (db) => webhooksRepo(db).dueSubscriptions() },
];
