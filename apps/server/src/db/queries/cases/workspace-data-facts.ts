import {
  factsRepo,
  type MemberRow,
  type NewMessage,
  type NewReaction,
} from '../../../modules/workspace-data/facts-repo.ts';
import type { Db } from '../../client.ts';
import type { Tx } from '../../sql.ts';
import { AT, DAY, LATER, T, type QueryCase } from './common.ts';

const file = 'workspace-data-facts';

const MEMBER: MemberRow = {
  memberId: 'U3',
  realName: 'Cleo',
  displayName: 'cleo',
  email: 'cleo@example.com',
  avatarUrl: 'https://example.com/cleo.png',
  isAdmin: false,
  isOwner: false,
  isBot: false,
  deleted: false,
  tz: 'Europe/Berlin',
  updated: 1768478400,
};
const message = (ts: string, text: string, editedAt: Date | null = null): NewMessage => ({
  teamId: T,
  channelId: 'C1',
  ts,
  userId: 'U1',
  threadTs: null,
  subtype: null,
  text,
  isReply: false,
  day: DAY,
  postedAt: AT,
  editedAt,
});
const M1 = message('1768478400.000100', 'Hello');
// First recorded from an edited copy.
const M2 = message('1768478400.000200', 'Hello again', LATER);
const reaction = (name: string): NewReaction => ({
  teamId: T,
  channelId: 'C1',
  ts: M1.ts,
  userId: 'U2',
  name,
  day: DAY,
  at: AT,
});
const gone = { teamId: T, channelId: 'C1', day: DAY, postedAt: AT, at: LATER };

/** Runs a method that takes the caller's transaction. */
const inTx = (db: Db, f: (tx: Tx) => Promise<unknown>) => db.transaction((tx) => f(tx));

export const workspaceDataFacts: QueryCase[] = [
  {
    file,
    name: 'factsRepo.upsertMember',
    run: (db) => inTx(db, (tx) => factsRepo.upsertMember(tx, T, MEMBER, AT)),
  },
  {
    file,
    name: 'factsRepo.setMemberLeft',
    run: (db) => inTx(db, (tx) => factsRepo.setMemberLeft(tx, T, 'U3', LATER)),
  },
  {
    file,
    name: 'factsRepo.addMemberEventOnce',
    run: (db) => inTx(db, (tx) => factsRepo.addMemberEventOnce(tx, T, 'U3', 'join', AT, DAY)),
  },
  {
    file,
    name: 'factsRepo.setJoinedAt',
    run: (db) => inTx(db, (tx) => factsRepo.setJoinedAt(tx, T, 'U3', AT)),
  },
  {
    file,
    name: 'factsRepo.upsertChannel',
    run: (db) =>
      inTx(db, (tx) =>
        factsRepo.upsertChannel(tx, T, {
          id: 'C2',
          name: 'random',
          isPrivate: false,
          isArchived: false,
          created: AT,
        }),
      ),
  },
  {
    file,
    name: 'factsRepo.createChannel',
    run: (db) =>
      inTx(db, (tx) =>
        factsRepo.createChannel(tx, T, { id: 'C3', name: 'news', isPrivate: true, created: AT }),
      ),
  },
  {
    file,
    name: 'factsRepo.renameChannel',
    run: (db) => inTx(db, (tx) => factsRepo.renameChannel(tx, T, 'C3', 'announcements')),
  },
  {
    file,
    name: 'factsRepo.archiveChannel',
    run: (db) => inTx(db, (tx) => factsRepo.archiveChannel(tx, T, 'C3', true)),
  },
  {
    file,
    name: 'factsRepo.channelExists',
    run: (db) => inTx(db, (tx) => factsRepo.channelExists(tx, T, 'C3')),
  },
  {
    file,
    name: 'factsRepo.channelIsPrivate',
    run: (db) => inTx(db, (tx) => factsRepo.channelIsPrivate(tx, T, 'C3')),
  },
  { file, name: 'factsRepo.botIds', run: (db) => inTx(db, (tx) => factsRepo.botIds(tx, T)) },
  {
    file,
    name: 'factsRepo.joinChannel',
    run: (db) => inTx(db, (tx) => factsRepo.joinChannel(tx, T, 'C2', 'U3', AT)),
  },
  {
    file,
    name: 'factsRepo.setChannelJoinedAt',
    run: (db) => inTx(db, (tx) => factsRepo.setChannelJoinedAt(tx, T, 'C2', 'U3', AT)),
  },
  {
    file,
    name: 'factsRepo.setChannelMembers',
    run: (db) => inTx(db, (tx) => factsRepo.setChannelMembers(tx, T, 'C2', ['U1', 'U2'])),
  },
  {
    file,
    name: 'factsRepo.leaveChannel',
    run: (db) => inTx(db, (tx) => factsRepo.leaveChannel(tx, T, 'C2', 'U3')),
  },
  { file, name: 'factsRepo.insertMessage', run: (db) => inTx(db, (tx) => factsRepo.insertMessage(tx, M1)) },
  {
    file,
    name: 'factsRepo.insertMessages',
    run: (db) => inTx(db, (tx) => factsRepo.insertMessages(tx, [M1, M2])),
  },
  {
    file,
    name: 'factsRepo.editMessage',
    run: (db) => inTx(db, (tx) => factsRepo.editMessage(tx, T, 'C1', M1.ts, 'Hello, edited', LATER)),
  },
  {
    file,
    name: 'factsRepo.insertReaction',
    run: (db) => inTx(db, (tx) => factsRepo.insertReaction(tx, reaction('wave'))),
  },
  {
    file,
    name: 'factsRepo.insertReactions',
    run: (db) => inTx(db, (tx) => factsRepo.insertReactions(tx, [reaction('tada'), reaction('eyes')])),
  },
  {
    file,
    name: 'factsRepo.deleteReaction',
    run: (db) => inTx(db, (tx) => factsRepo.deleteReaction(tx, { ...reaction('tada'), at: LATER })),
  },
  {
    file,
    name: 'factsRepo.deleteReaction (not known yet: a tombstone)',
    run: (db) => inTx(db, (tx) => factsRepo.deleteReaction(tx, { ...reaction('rocket'), at: LATER })),
  },
  {
    file,
    name: 'factsRepo.deleteReactionsOf',
    run: (db) => inTx(db, (tx) => factsRepo.deleteReactionsOf(tx, T, 'C1', M1.ts, LATER)),
  },
  {
    file,
    name: 'factsRepo.deleteMessage',
    run: (db) => inTx(db, (tx) => factsRepo.deleteMessage(tx, { ...gone, ts: M2.ts })),
  },
  {
    file,
    name: 'factsRepo.deleteMessage (not known yet: a tombstone)',
    run: (db) => inTx(db, (tx) => factsRepo.deleteMessage(tx, { ...gone, ts: '1768478400.000900' })),
  },
];
