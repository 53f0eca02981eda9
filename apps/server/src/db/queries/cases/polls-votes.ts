import { pollVotesRepo } from '../../../modules/polls/votes-repo.ts';
import type { Db } from '../../client.ts';
import type { Tx } from '../../sql.ts';
import { AT, T, type QueryCase } from './common.ts';
import { ID, OPTIONS, POLL_TS, seedPoll } from './fixture.ts';

const file = 'polls-votes';

/** Runs a method in the caller's transaction (an event batch's, or a button vote's). */
const inTx = (db: Db, f: (tx: Tx) => Promise<unknown>) => db.transaction((tx) => f(tx));

/** Bob's reaction to poll 901's message for option 1 (Salad), added then removed a minute later. */
const reaction = (present: boolean) => ({
  pollId: ID,
  teamId: T,
  memberId: 'U2',
  option: 1,
  present,
  ts: present ? '1768478400.000700' : '1768478460.000700',
});

export const pollsVotes: QueryCase[] = [
  { file, name: 'pollVotesRepo.counts', seed: seedPoll, run: (db) => pollVotesRepo(db).counts([ID, 902]) },
  { file, name: 'pollVotesRepo.voterCounts', run: (db) => pollVotesRepo(db).voterCounts([ID, 902]) },
  { file, name: 'pollVotesRepo.choiceVoters', run: (db) => pollVotesRepo(db).choiceVoters(ID) },
  {
    file,
    name: 'pollVotesRepo.lockForVote',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).lockForVote(tx, ID)),
  },
  {
    file,
    name: 'pollVotesRepo.choicesOf',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).choicesOf(tx, ID, 'U1')),
  },
  {
    file,
    name: 'pollVotesRepo.choose',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).choose(tx, ID, 'U1', 0, AT.getTime())),
  },
  {
    file,
    name: 'pollVotesRepo.unchoose',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).unchoose(tx, ID, 'U1', 0)),
  },
  {
    file,
    name: 'pollVotesRepo.unchoose (every option)',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).unchoose(tx, ID, 'U1')),
  },
  {
    file,
    name: 'pollVotesRepo.setOptions',
    run: (db) =>
      inTx(db, (tx) =>
        pollVotesRepo(db).setOptions(tx, ID, [
          ...OPTIONS,
          { emoji: '🌮', emoji_code: 'taco', value: 'Tacos' },
        ]),
      ),
  },
  { file, name: 'pollVotesRepo.voters', run: (db) => pollVotesRepo(db).voters(ID) },
  {
    file,
    name: 'pollVotesRepo.pollOfMessage',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).pollOfMessage(tx, T, 'C1', POLL_TS)),
  },
  {
    file,
    name: 'pollVotesRepo.unsettled',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).unsettled(tx, T, AT.getTime())),
  },
  { file, name: 'pollVotesRepo.forVote', run: (db) => inTx(db, (tx) => pollVotesRepo(db).forVote(tx, ID)) },
  {
    file,
    name: 'pollVotesRepo.isPerson',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).isPerson(tx, T, 'U2')),
  },
  {
    file,
    name: 'pollVotesRepo.react',
    seed: seedPoll,
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).react(tx, reaction(true))),
  },
  {
    file,
    name: 'pollVotesRepo.react (the reaction removed: the vote goes)',
    run: (db) => inTx(db, (tx) => pollVotesRepo(db).react(tx, reaction(false))),
  },
];
