import { mailRepo } from '../../../modules/mail/repo.ts';
import { AT, type QueryCase } from './common.ts';

const file = 'mail';

export const mail: QueryCase[] = [
  {
    file,
    name: 'mailRepo.record',
    run: (db) =>
      mailRepo(db).record({
        to: 'ada@example.com',
        subject: 'Verify your e-mail',
        text: 'Hello',
        html: '<p>Hello</p>',
        transport: 'outbox',
        messageId: '<1@flywheel>',
      }),
  },
  { file, name: 'mailRepo.listOutbox', run: (db) => mailRepo(db).listOutbox('ada@example.com', AT, 20) },
];
