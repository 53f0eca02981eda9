import { activityLevels } from './cases/activity-levels.ts';
import type { QueryCase } from './cases/common.ts';
import { directory } from './cases/directory.ts';
import { memberDetail } from './cases/member-detail.ts';
import { notifications } from './cases/notifications.ts';
import { tags } from './cases/tags.ts';
import { workspaces } from './cases/workspaces.ts';

export type { QueryCase } from './cases/common.ts';

/**
 * The repository statements whose SQL is kept in this folder (one `<file>.sql` per group), as the repositories
 * send it: queries.test.ts calls each case on a migrated database and writes down every statement it sends, with
 * its parameters. A change to one of these statements shows in review as a diff of its .sql file. Each group's
 * cases are in `cases/<group>.ts`; arguments are fixed, so the files change only when the SQL does.
 */
export const QUERY_CASES: QueryCase[] = [
  ...activityLevels,
  ...directory,
  ...memberDetail,
  ...notifications,
  ...tags,
  ...workspaces,
];
