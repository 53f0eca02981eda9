import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityFilter } from '@flywheel/shared/members';
import { channelsActivityAnalytics } from '@flywheel/shared/endpoints/analytics';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import type { TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey } from './keys.ts';

/** POST /analytics/channelsactivityanalytics: totals per channel, optionally filtered by activity. */
export const getChannelsActivity = (
  teamId: string,
  time: TimeChoice,
  activity: ActivityFilter | undefined,
  signal?: AbortSignal,
) =>
  callEndpoint(
    channelsActivityAnalytics,
    { body: { team_id: teamId, time_filter: time, activity_filter: activity } },
    { signal },
  ).then((a) => a.data);

export const channelsActivityQuery = (
  teamId: string,
  time: TimeChoice,
  activity: ActivityFilter | undefined,
) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'channels-activity', time, activity],
    queryFn: ({ signal }) => getChannelsActivity(teamId, time, activity, signal),
    placeholderData: keepPreviousData,
  });

export function useChannelsActivity(time: TimeChoice, activity: ActivityFilter | undefined) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...channelsActivityQuery(teamId, time, activity), enabled });
}
