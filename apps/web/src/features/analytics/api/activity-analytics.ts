import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { activityRowsResponse } from '@flywheel/shared/analytics';
import { requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey, type ActivityRequest } from './keys.ts';

/** POST /analytics/activityanalytics: messages, replies and reactions per day (and channel). */
export const getActivity = (teamId: string, r: ActivityRequest, signal?: AbortSignal) =>
  requestData('/analytics/activityanalytics', activityRowsResponse, {
    body: { team_id: teamId, time_filter: r.time, channels: r.channels },
    signal,
  });

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
