import { searchQueryOf } from '../../../modules/conversations/core.ts';
import { questionsRepo, type UnansweredFilter } from '../../../modules/conversations/questions-repo.ts';
import { DAY, T, type QueryCase } from './common.ts';
import { MSG, seedMessages } from './fixture.ts';

const file = 'conversations-questions';

/** Asked in the 30 days before LATER, unanswered for an hour at least, anywhere. */
const FILTER: UnansweredFilter = {
  from: new Date('2025-12-16T12:05:00.000Z'),
  dueBy: new Date('2026-01-15T11:05:00.000Z'),
  channelId: null,
  q: null,
};
const SEARCH: UnansweredFilter = { ...FILTER, channelId: 'C1', q: searchQueryOf('deploy review')! };

export const conversationsQuestions: QueryCase[] = [
  {
    file,
    name: 'questionsRepo.unanswered',
    seed: seedMessages,
    run: (db) => questionsRepo(db).unanswered(T, FILTER, null, 51),
  },
  {
    file,
    name: 'questionsRepo.unanswered (a search, one channel, after a cursor)',
    run: (db) =>
      questionsRepo(db).unanswered(
        T,
        SEARCH,
        { at: new Date(1768474800_000), ts: MSG.hourAgo, channelId: 'C1' },
        51,
      ),
  },
  { file, name: 'questionsRepo.countUnanswered', run: (db) => questionsRepo(db).countUnanswered(T, FILTER) },
  {
    file,
    name: 'questionsRepo.countUnanswered (a search, one channel)',
    run: (db) => questionsRepo(db).countUnanswered(T, SEARCH),
  },
  {
    file,
    name: 'questionsRepo.isTopLevel',
    run: (db) => questionsRepo(db).isTopLevel(T, 'C1', MSG.question),
  },
  {
    file,
    name: 'questionsRepo.markHandled',
    run: (db) => questionsRepo(db).markHandled(T, 'C1', MSG.question, 'U1'),
  },
  { file, name: 'questionsRepo.timezone', run: (db) => questionsRepo(db).timezone(T) },
  {
    file,
    name: 'questionsRepo.responseTimes',
    run: (db) => questionsRepo(db).responseTimes(T, 'Europe/Berlin', '2025-10-18', DAY),
  },
];
