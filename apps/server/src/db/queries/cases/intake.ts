import { inboxRepo } from '../../../modules/intake/inbox-repo.ts';
import { AT, T, type QueryCase } from './common.ts';

const file = 'intake';

const envelope = (id: string) => ({
  type: 'event_callback',
  team_id: T,
  event_id: id,
  event_time: 1768478400,
  event: { type: 'message', channel: 'C1', user: 'U1', text: 'Hello', ts: '1768478400.000100' },
});

export const intake: QueryCase[] = [
  {
    file,
    name: 'inboxRepo.addMany',
    run: (db) =>
      inboxRepo(db).addMany([
        { eventId: 'Ev1', teamId: T, eventType: 'message', payload: envelope('Ev1') },
        // The raw body as Slack signed it.
        { eventId: 'Ev2', teamId: T, eventType: 'message', payload: JSON.stringify(envelope('Ev2')) },
      ]),
  },
  {
    file,
    name: 'inboxRepo.add',
    run: (db) =>
      inboxRepo(db).add({ eventId: 'Ev3', teamId: T, eventType: 'message', payload: envelope('Ev3') }),
  },
  { file, name: 'inboxRepo.claim', run: (db) => db.transaction((tx) => inboxRepo(db).claim(tx, 10)) },
  {
    file,
    name: 'inboxRepo.markProcessed',
    run: (db) => db.transaction((tx) => inboxRepo(db).markProcessed(tx, ['Ev1', 'Ev2'])),
  },
  {
    file,
    name: 'inboxRepo.isPending',
    run: (db) => db.transaction((tx) => inboxRepo(db).isPending(tx, 'Ev3')),
  },
  { file, name: 'inboxRepo.markFailed', run: (db) => inboxRepo(db).markFailed('Ev3', 'boom', 5) },
  { file, name: 'inboxRepo.pending', run: (db) => inboxRepo(db).pending() },
  { file, name: 'inboxRepo.purgeProcessed', run: (db) => inboxRepo(db).purgeProcessed(AT) },
];
