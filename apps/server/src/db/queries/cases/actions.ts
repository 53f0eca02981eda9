import { actionsRepo } from '../../../modules/actions/repo.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';
import { ID, seedAction } from './fixture.ts';

const file = 'actions';

export const actions: QueryCase[] = [
  {
    file,
    name: 'actionsRepo.insert',
    run: (db) =>
      actionsRepo(db).insert({
        team_id: T,
        kind: 'schedule',
        name: 'Monday note',
        sender: 'admin',
        admin_user: 'U1',
        message: 'Hello',
        html: '<p>Hello</p>',
        images: ['https://example.com/a.png'],
        channel_ids: ['C1'],
        dm_members: ['U2'],
        dm_tags: [ID],
        dm_channels: [],
        send_to_workspace: false,
        send_dm: true,
        frequency: 'Weekly',
        days: ['mon'],
        time: '09:00',
        run_at: null,
        next_run_at: '2026-01-19T08:00:00.000Z',
        created_by: 'u-snapshot',
      }),
  },
  { file, name: 'actionsRepo.find', seed: seedAction, run: (db) => actionsRepo(db).find(T, ID) },
  { file, name: 'actionsRepo.list', run: (db) => actionsRepo(db).list(T, 'automation') },
  {
    file,
    name: 'actionsRepo.list (a search)',
    run: (db) => actionsRepo(db).list(T, 'schedule', 'Monday_%'),
  },
  {
    file,
    name: 'actionsRepo.update',
    run: (db) => actionsRepo(db).update(T, ID, { dm_members: ['U1'], message: 'Welcome back!' }),
  },
  { file, name: 'actionsRepo.recurringSchedules', run: (db) => actionsRepo(db).recurringSchedules(T) },
  { file, name: 'actionsRepo.remove', run: (db) => actionsRepo(db).remove(T, 999) },
  {
    file,
    name: 'actionsRepo.lockDueSchedules',
    run: (db) => db.transaction((tx) => actionsRepo(db).lockDueSchedules(tx, 10, AT)),
  },
  {
    file,
    name: 'actionsRepo.addRuns',
    seed: seedAction,
    run: (db) =>
      db.transaction((tx) =>
        actionsRepo(db).addRuns(tx, [
          {
            actionId: ID,
            teamId: T,
            key: '2026-01-15T08:00',
            dueAt: '2026-01-15T08:00:00.000Z',
            status: 'due',
          },
          {
            actionId: ID,
            teamId: T,
            key: '2026-01-14T08:00',
            dueAt: '2026-01-14T08:00:00.000Z',
            status: 'skipped',
          },
        ]),
      ),
  },
  {
    file,
    name: 'actionsRepo.advanceMany',
    run: (db) =>
      db.transaction((tx) =>
        actionsRepo(db).advanceMany(tx, [
          { id: ID, next: '2026-01-16T08:00:00.000Z', ranAt: AT.toISOString() },
          { id: 902, next: null, ranAt: AT.toISOString() },
        ]),
      ),
  },
  {
    file,
    name: 'actionsRepo.addJoinRuns',
    run: (db) => db.transaction((tx) => actionsRepo(db).addJoinRuns(tx, T, 'U1', AT.toISOString())),
  },
  { file, name: 'actionsRepo.claimDueRuns', run: (db) => actionsRepo(db).claimDueRuns(10, AT, 60_000) },
  { file, name: 'actionsRepo.countDueRuns', run: (db) => actionsRepo(db).countDueRuns(AT) },
  { file, name: 'actionsRepo.releaseRuns', run: (db) => actionsRepo(db).releaseRuns([1, 2], LATER) },
  {
    file,
    name: 'actionsRepo.finishRuns',
    run: (db) =>
      actionsRepo(db).finishRuns([
        { id: 1, status: 'sent', receiptId: 41, error: null },
        { id: 2, status: 'failed', receiptId: null, error: 'channel_not_found' },
      ]),
  },
  { file, name: 'actionsRepo.findMany', run: (db) => actionsRepo(db).findMany([ID, 902]) },
  { file, name: 'actionsRepo.memberNames', run: (db) => actionsRepo(db).memberNames(T, ['U1', 'U2']) },
  { file, name: 'actionsRepo.channelNames', run: (db) => actionsRepo(db).channelNames(T, ['C1']) },
  {
    file,
    name: 'actionsRepo.recordedJoin',
    run: (db) => db.transaction((tx) => actionsRepo(db).recordedJoin(tx, T, 'U1', AT)),
  },
];
