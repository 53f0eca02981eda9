import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { tags } from './table.ts';

export const tagsRepo = (db: Db) => ({
  list: (teamId: string) =>
    db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(eq(tags.teamId, teamId))
      .orderBy(asc(tags.name)),
});
