import { notificationsRepo } from '../../../modules/notifications/repo.ts';
import { type QueryCase } from './common.ts';

export const notifications: QueryCase[] = [
  {
    file: 'notifications',
    name: 'notificationsRepo.page',
    run: (db) => notificationsRepo(db).page('1', 20, null),
  },
  { file: 'notifications', name: 'notificationsRepo.unread', run: (db) => notificationsRepo(db).unread('1') },
];
