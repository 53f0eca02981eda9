import { formsRepo } from '../../../modules/forms/repo.ts';
import { T, type QueryCase } from './common.ts';
import { ID, USER, seedForm, seedInstance } from './fixture.ts';

const file = 'forms';

export const forms: QueryCase[] = [
  {
    file,
    name: 'formsRepo.insertForm',
    run: (db) =>
      formsRepo(db).insertForm({
        team_id: T,
        name: 'Weekly check-in',
        description: 'How was your week?',
        sender: 'admin',
        admin_user: 'U1',
        questions: [
          {
            question: 'How was it?',
            description: '',
            type: 'mcq',
            options: ['Good', 'Bad'],
            optional: false,
          },
          {
            question: 'Anything else?',
            description: 'Optional',
            type: 'descriptive',
            options: [],
            optional: true,
          },
        ],
        ack_message: 'Thanks!',
        channel_ids: ['C1'],
        dm_members: ['U2'],
        dm_tags: [ID],
        dm_channels: [],
        send_to_workspace: false,
        frequency: 'Weekly',
        days: ['fri'],
        time: '16:00',
        run_at: null,
        next_run_at: '2026-01-16T15:00:00.000Z',
        created_by: USER,
      }),
  },
  { file, name: 'formsRepo.findForm', seed: seedForm, run: (db) => formsRepo(db).findForm(T, ID) },
  { file, name: 'formsRepo.listForms', run: (db) => formsRepo(db).listForms(T) },
  { file, name: 'formsRepo.listForms (a search)', run: (db) => formsRepo(db).listForms(T, 'Check_%') },
  {
    file,
    name: 'formsRepo.deleteForm',
    seed: (db) => seedForm(db, 902),
    run: (db) => formsRepo(db).deleteForm(T, 902),
  },
  {
    file,
    name: 'formsRepo.findInstance',
    seed: seedInstance,
    run: (db) => formsRepo(db).findInstance(T, ID),
  },
  { file, name: 'formsRepo.listInstances', run: (db) => formsRepo(db).listInstances(T, ID) },
];
