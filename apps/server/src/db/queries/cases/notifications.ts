import { notificationsRepo } from '../../../modules/notifications/repo.ts';
import { AT, T, type QueryCase } from './common.ts';
import { USER, seedWorkspace } from './fixture.ts';

const file = 'notifications';

export const notifications: QueryCase[] = [
  {
    file,
    name: 'notificationsRepo.page',
    run: (db) => notificationsRepo(db).page('1', 20, null),
  },
  { file, name: 'notificationsRepo.unread', run: (db) => notificationsRepo(db).unread('1') },
  {
    file,
    name: 'notificationsRepo.page (after a cursor)',
    run: (db) => notificationsRepo(db).page(USER, 20, { atUs: '1768478400000000', id: 7 }),
  },
  {
    file,
    name: 'notificationsRepo.fanOut',
    seed: seedWorkspace,
    run: (db) =>
      db.transaction((tx) =>
        notificationsRepo(db).fanOut(tx, {
          teamId: T,
          kind: 'send.failed',
          data: { receipt_id: 41 },
          dedupeKey: 'send.failed:41',
        }),
      ),
  },
  {
    file,
    name: 'notificationsRepo.gather',
    run: (db) =>
      db.transaction((tx) =>
        notificationsRepo(db).gather(tx, {
          teamId: T,
          kind: 'member.joined',
          data: { member_id: 'U2' },
          groupKey: `member.joined:${T}`,
        }),
      ),
  },
  { file, name: 'notificationsRepo.markRead', run: (db) => notificationsRepo(db).markRead(USER, 1) },
  { file, name: 'notificationsRepo.markAllRead', run: (db) => notificationsRepo(db).markAllRead(USER) },
  {
    file,
    name: 'notificationsRepo.connection',
    run: (db) => db.transaction((tx) => notificationsRepo(db).connection(tx, T)),
  },
  { file, name: 'notificationsRepo.deleteOlderThan', run: (db) => notificationsRepo(db).deleteOlderThan(AT) },
];
