import type { QueryClient } from '@tanstack/react-query';
import { DEFAULT_MEMBER_PAGE_SIZE } from '@flywheel/shared/members';
import { membersDataQuery } from './api/get-members-data.ts';
import { levelCountsQuery } from './api/member-levels.ts';
import { DEFAULT_FILTERS, DEFAULT_SORT, toPayload } from './filters.ts';

/** The Members table's first page, as MembersPage first asks for it: see app/warm-start.ts. */
export function prefetchMembers(qc: QueryClient, teamId: string): Promise<void>[] {
  const first = { sort: DEFAULT_SORT, page: 1, page_size: DEFAULT_MEMBER_PAGE_SIZE };
  return [
    qc.prefetchQuery(membersDataQuery({ ...toPayload(teamId, DEFAULT_FILTERS), ...first })),
    qc.prefetchQuery(levelCountsQuery(teamId)),
  ];
}
