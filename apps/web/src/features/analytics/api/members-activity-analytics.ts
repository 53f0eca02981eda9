import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { memberActivityResponse, membersActivityResponse } from '@flywheel/shared/analytics';
import { apiRequest } from '../../../lib/api-client.ts';
import { requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey, type MembersActivityRequest } from './keys.ts';

const PATH = '/analytics/membersactivityanalytics';
/** Rows per page of the Members Activity table (the server pages, most active first). */
export const MEMBERS_ACTIVITY_PAGE_SIZE = 10;

const body = (teamId: string, r: MembersActivityRequest) => ({
  team_id: teamId,
  time_filter: r.time,
  channels: r.channels,
  activity_filter: r.activity,
  tags: r.tags,
});

/** One page of the Members Activity table: `{ data: the page's rows, total: every match }`. */
export const getMembersActivityPage = (
  teamId: string,
  r: MembersActivityRequest,
  page: number,
  signal?: AbortSignal,
) =>
  apiRequest(PATH, {
    body: { ...body(teamId, r), page, page_size: MEMBERS_ACTIVITY_PAGE_SIZE },
    schema: membersActivityResponse,
    signal,
  });

/** Every member matching the filters (no page_size: the server sends all of them, in the table's order). */
export const getAllMembersActivity = (teamId: string, r: MembersActivityRequest) =>
  requestData(PATH, memberActivityResponse, { body: body(teamId, r) });

export const membersActivityQuery = (teamId: string, r: MembersActivityRequest, page: number) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'members-activity', r, page],
    queryFn: ({ signal }) => getMembersActivityPage(teamId, r, page, signal),
    placeholderData: keepPreviousData,
  });

export function useMembersActivity(r: MembersActivityRequest, page: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...membersActivityQuery(teamId, r, page), enabled });
}

/** The Members Activity CSV: every match, fetched when asked. */
export function useAllMembersActivity() {
  const { teamId } = useTeamScope();
  return useMutation({ mutationFn: (r: MembersActivityRequest) => getAllMembersActivity(teamId, r) });
}
