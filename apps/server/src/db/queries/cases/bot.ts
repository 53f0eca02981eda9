import { botRepo } from '../../../modules/bot/repo.ts';
import { T, type QueryCase } from './common.ts';

const file = 'bot';

export const bot: QueryCase[] = [
  { file, name: 'botRepo.find', run: (db) => botRepo(db).find(T) },
  { file, name: 'botRepo.save', run: (db) => botRepo(db).save(T, 'Flywheel', true) },
  {
    file,
    name: 'botRepo.saveIcon',
    run: (db) =>
      botRepo(db).saveIcon(T, 'https://example.com/icon.png', { botName: 'Flywheel', useCustom: false }),
  },
];
