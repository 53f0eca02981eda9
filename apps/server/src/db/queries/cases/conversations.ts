import { conversationsRepo, type ThreadPosition } from '../../../modules/conversations/repo.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';
import { MSG, seedMessages } from './fixture.ts';

const file = 'conversations';

/** A week of threads ending at LATER, newest first, 50 a page. */
const WEEK = {
  from: new Date('2026-01-08T12:05:00.000Z'),
  to: LATER,
  channelId: null,
  sort: 'time' as const,
  direction: 'desc' as const,
  after: null,
  limit: 50,
};
/** Where the page before ended: after Bob's hour-old message (`key`: its sort value). */
const after = (key: string | number | null): ThreadPosition => ({
  at: new Date(1768474800_000),
  ts: MSG.hourAgo,
  channelId: 'C1',
  key,
});

export const conversations: QueryCase[] = [
  {
    file,
    name: 'conversationsRepo.threads',
    seed: seedMessages,
    run: (db) => conversationsRepo(db).threads(T, WEEK),
  },
  {
    file,
    name: 'conversationsRepo.threads (one channel, oldest first, after a cursor)',
    run: (db) =>
      conversationsRepo(db).threads(T, { ...WEEK, channelId: 'C1', direction: 'asc', after: after(null) }),
  },
  {
    file,
    name: 'conversationsRepo.threads (by sender, after a cursor)',
    run: (db) => conversationsRepo(db).threads(T, { ...WEEK, sort: 'sender', after: after('bob') }),
  },
  {
    file,
    name: 'conversationsRepo.threads (by channel)',
    run: (db) => conversationsRepo(db).threads(T, { ...WEEK, sort: 'channel', direction: 'asc' }),
  },
  {
    file,
    name: 'conversationsRepo.threads (by replies in one channel, after a cursor)',
    run: (db) =>
      conversationsRepo(db).threads(T, { ...WEEK, channelId: 'C1', sort: 'replies', after: after(0) }),
  },
  {
    file,
    name: 'conversationsRepo.threads (by reactions)',
    run: (db) => conversationsRepo(db).threads(T, { ...WEEK, sort: 'reactions' }),
  },
  {
    file,
    name: 'conversationsRepo.channelsWithTs',
    run: (db) => conversationsRepo(db).channelsWithTs(T, MSG.question, new Date(1768478300_000), null),
  },
  {
    file,
    name: 'conversationsRepo.channelsWithTs (in a channel)',
    run: (db) => conversationsRepo(db).channelsWithTs(T, MSG.question, new Date(1768478300_000), 'C1'),
  },
  {
    file,
    name: 'conversationsRepo.message',
    run: (db) => conversationsRepo(db).message(T, 'C1', MSG.question),
  },
  {
    file,
    name: 'conversationsRepo.replies',
    run: (db) => conversationsRepo(db).replies(T, 'C1', MSG.question),
  },
  {
    file,
    name: 'conversationsRepo.reactions',
    run: (db) => conversationsRepo(db).reactions(T, 'C1', MSG.question),
  },
  {
    file,
    name: 'conversationsRepo.memberNames',
    run: (db) => conversationsRepo(db).memberNames(T, ['U1', 'U2']),
  },
  {
    file,
    name: 'conversationsRepo.channelNames',
    run: (db) => conversationsRepo(db).channelNames(T, ['C1']),
  },
  { file, name: 'conversationsRepo.workspace', run: (db) => conversationsRepo(db).workspace(T) },
  {
    file,
    name: 'conversationsRepo.markSeen',
    run: (db) => conversationsRepo(db).markSeen(T, 'C1', MSG.question, 'reply', 'U1'),
  },
  {
    file,
    name: 'conversationsRepo.setPinned',
    run: (db) =>
      db.transaction((tx) =>
        conversationsRepo(db).setPinned(tx, {
          teamId: T,
          channelId: 'C1',
          ts: MSG.question,
          pinned: true,
          by: 'U1',
          at: AT,
        }),
      ),
  },
];
