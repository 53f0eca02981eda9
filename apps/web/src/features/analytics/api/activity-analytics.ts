import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { activityAnalytics } from '@flywheel/shared/endpoints/analytics';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey, type ActivityRequest } from './keys.ts';

/** POST /analytics/activityanalytics: messages, replies and reactions per day (and channel). */
export const getActivity = (teamId: string, r: ActivityRequest, signal?: AbortSignal) =>
  callEndpoint(
    activityAnalytics,
    { body: { team_id: teamId, time_filter: r.time, channels: r.channels } },
    { signal },
  ).then((a) => a.data);

export const activityQuery = (teamId: string, r: ActivityRequest) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'activity', r],
    queryFn: ({ signal }) => getActivity(teamId, r, signal),
    placeholderData: keepPreviousData,
  });

export function useActivity(r: ActivityRequest) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...activityQuery(teamId, r), enabled });
}
