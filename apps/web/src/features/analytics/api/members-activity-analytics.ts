import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { membersActivityAnalytics } from '@flywheel/shared/endpoints/analytics';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey, type MembersActivityRequest } from './keys.ts';

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
  callEndpoint(
    membersActivityAnalytics,
    { body: { ...body(teamId, r), page, page_size: MEMBERS_ACTIVITY_PAGE_SIZE } },
    { signal },
  );

/** Every member matching the filters (no page_size: the server sends all of them, in the table's order). */
export const getAllMembersActivity = (teamId: string, r: MembersActivityRequest) =>
  callEndpoint(membersActivityAnalytics, { body: body(teamId, r) }).then((a) => a.data);

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
