import { pollsRepo } from '../../../modules/polls/repo.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';
import { ID, OPTIONS, USER, seedPoll } from './fixture.ts';

const file = 'polls';

export const polls: QueryCase[] = [
  {
    file,
    name: 'pollsRepo.insert',
    run: (db) =>
      pollsRepo(db).insert({
        team_id: T,
        question: 'Which day for the meetup?',
        html: '<p>Which day for the meetup?</p>',
        images: [],
        options: OPTIONS,
        channel_ids: ['C1'],
        sender: 'admin',
        admin_user: 'U1',
        type: 'scheduled',
        created_by: 'Ada',
        created_by_user: USER,
        post_at: LATER.toISOString(),
        expires_at: '2026-01-16T12:05:00.000Z',
        voting: 'buttons',
        ballot: { anonymous: false, multiple: true, max_choices: 2, allow_add: false, results: 'live' },
      }),
  },
  { file, name: 'pollsRepo.find', seed: seedPoll, run: (db) => pollsRepo(db).find(T, ID) },
  { file, name: 'pollsRepo.byId', run: (db) => pollsRepo(db).byId(ID) },
  { file, name: 'pollsRepo.list', run: (db) => pollsRepo(db).list(T) },
  { file, name: 'pollsRepo.list (a search)', run: (db) => pollsRepo(db).list(T, 'lunch_%') },
  { file, name: 'pollsRepo.closeEarly', run: (db) => pollsRepo(db).closeEarly(T, ID, AT.getTime()) },
  { file, name: 'pollsRepo.reopen', run: (db) => pollsRepo(db).reopen(T, ID, LATER.getTime()) },
  { file, name: 'pollsRepo.channelNames', run: (db) => pollsRepo(db).channelNames(T, ['C1', 'C2']) },
  { file, name: 'pollsRepo.adminName', run: (db) => pollsRepo(db).adminName(T, 'U1') },
  { file, name: 'pollsRepo.hardDelete', run: (db) => pollsRepo(db).hardDelete(999) },
  { file, name: 'pollsRepo.markDeleted', run: (db) => pollsRepo(db).markDeleted(T, 999, AT.getTime()) },
];
