import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { membersChangeAnalytics } from '@flywheel/shared/endpoints/analytics';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey, type ActivityRequest } from './keys.ts';

/** POST /analytics/memberschangeanalytics: members joined, left, active and overall per day. */
export const getMembersChange = (teamId: string, r: ActivityRequest, signal?: AbortSignal) =>
  callEndpoint(
    membersChangeAnalytics,
    { body: { team_id: teamId, time_filter: r.time, channels: r.channels } },
    { signal },
  ).then((a) => a.data);

export const membersChangeQuery = (teamId: string, r: ActivityRequest) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'members-change', r],
    queryFn: ({ signal }) => getMembersChange(teamId, r, signal),
    placeholderData: keepPreviousData,
  });

export function useMembersChange(r: ActivityRequest) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...membersChangeQuery(teamId, r), enabled });
}
