import { audienceRepo } from '../../../modules/audience/repo.ts';
import { T, type QueryCase } from './common.ts';
import { ID } from './fixture.ts';

const file = 'audience';

export const audience: QueryCase[] = [
  {
    file,
    name: 'audienceRepo.members',
    run: (db) =>
      audienceRepo(db).members(T, {
        everyone: false,
        ids: ['U1'],
        emails: ['Bob@Example.com'],
        tagIds: [ID],
        channelIds: ['C1'],
      }),
  },
  {
    file,
    name: 'audienceRepo.knownMembers',
    run: (db) => audienceRepo(db).knownMembers(T, ['U1'], ['Bob@Example.com']),
  },
  {
    file,
    name: 'audienceRepo.memberStates',
    run: (db) => audienceRepo(db).memberStates(T, ['U1'], ['Bob@Example.com']),
  },
  { file, name: 'audienceRepo.knownChannels', run: (db) => audienceRepo(db).knownChannels(T, ['C1']) },
  { file, name: 'audienceRepo.knownTags', run: (db) => audienceRepo(db).knownTags(T, [ID]) },
];
