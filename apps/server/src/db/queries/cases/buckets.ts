import { bucketDataSchema } from '@flywheel/shared/buckets';
import { sql } from 'drizzle-orm';
import { bucketsRepo } from '../../../modules/buckets/repo.ts';
import type { Db } from '../../client.ts';
import * as schema from '../../schema.ts';
import { AT, DAY, T, type QueryCase } from './common.ts';
import { ID, seedMembers } from './fixture.ts';

const file = 'buckets';
const DATA = bucketDataSchema.parse({ channel_filter: { ids: ['C1'] } });

/** Bucket 901 of T. */
async function seedBucket(db: Db) {
  await seedMembers(db);
  await db
    .insert(schema.buckets)
    .overridingSystemValue()
    .values({ id: ID, teamId: T, name: 'Snapshot', data: DATA })
    .onConflictDoNothing();
}

export const buckets: QueryCase[] = [
  { file, name: 'bucketsRepo.create', run: (db) => bucketsRepo(db).create(T, 'Active', DATA) },
  { file, name: 'bucketsRepo.list', run: (db) => bucketsRepo(db).list(T) },
  { file, name: 'bucketsRepo.get', seed: seedBucket, run: (db) => bucketsRepo(db).get(T, ID) },
  {
    file,
    name: 'bucketsRepo.saveRun',
    seed: seedBucket,
    run: (db) =>
      bucketsRepo(db).saveRun(T, ID, {
        at: AT,
        fromDay: '2026-01-09',
        toDay: DAY,
        channels: '#general',
        // What membersRepo.matchesQuery answers, as fixed rows.
        matches: sql`select * from (values ('U1', 3, 1, 2), ('U2', 0, 1, 0))
          as v(member_id, messages, replies, reactions)`,
      }),
  },
  { file, name: 'bucketsRepo.runRows', run: (db) => bucketsRepo(db).runRows(T, ID) },
  { file, name: 'bucketsRepo.memberIds', run: (db) => bucketsRepo(db).memberIds(T, ID) },
  { file, name: 'bucketsRepo.remove', run: (db) => bucketsRepo(db).remove(T, 999) },
  { file, name: 'bucketsRepo.channelNames', run: (db) => bucketsRepo(db).channelNames(T, ['C1']) },
];
