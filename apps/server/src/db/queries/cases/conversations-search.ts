import { searchQueryOf } from '../../../modules/conversations/core.ts';
import { conversationsSearchRepo } from '../../../modules/conversations/search-repo.ts';
import { T, type QueryCase } from './common.ts';
import { MSG, seedMessages } from './fixture.ts';

const file = 'conversations-search';

/** The search box's "hello": a full-text query (its last word also as a prefix). */
const HELLO = searchQueryOf('hello')!;
/** The Mentions panel's: Ada, and the bot. */
const TARGETS = ['U1', 'B1'];

export const conversationsSearch: QueryCase[] = [
  {
    file,
    name: 'conversationsSearchRepo.search',
    seed: seedMessages,
    run: (db) => conversationsSearchRepo(db).search(T, HELLO, null, 50),
  },
  {
    file,
    name: 'conversationsSearchRepo.search (past the newest messages: the time slices, one channel)',
    seed: seedMessages,
    run: (db) => conversationsSearchRepo(db, { recentScan: 2 }).search(T, HELLO, 'C1', 50),
  },
  {
    file,
    name: 'conversationsSearchRepo.mentions',
    run: (db) =>
      conversationsSearchRepo(db).mentions(T, {
        ids: TARGETS,
        q: null,
        userId: null,
        channelId: null,
        after: null,
        limit: 50,
      }),
  },
  {
    file,
    name: 'conversationsSearchRepo.mentions (a search, by one member, in one channel, after a cursor)',
    run: (db) =>
      conversationsSearchRepo(db).mentions(T, {
        ids: TARGETS,
        q: HELLO,
        userId: 'U2',
        channelId: 'C1',
        after: { at: new Date(1768478350_000), ts: MSG.reply, channelId: 'C1' },
        limit: 50,
      }),
  },
  {
    file,
    name: 'conversationsSearchRepo.mentionAuthorsAndChannels',
    run: (db) => conversationsSearchRepo(db).mentionAuthorsAndChannels(T, TARGETS),
  },
  {
    file,
    name: 'conversationsSearchRepo.hasWords',
    run: (db) => conversationsSearchRepo(db).hasWords(HELLO),
  },
  {
    file,
    name: 'conversationsSearchRepo.mentionTargets',
    run: (db) => conversationsSearchRepo(db).mentionTargets(T),
  },
];
