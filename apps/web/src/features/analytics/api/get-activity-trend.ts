import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getActivityTrend as trendEndpoint } from '@flywheel/shared/endpoints/analytics';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import type { TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey } from './keys.ts';

/** POST /analytics/getactivitytrend: activity per slot of the day ('00-02': n, ...). */
export const getActivityTrend = (teamId: string, time: TimeChoice, slot: number, signal?: AbortSignal) =>
  callEndpoint(trendEndpoint, { body: { team_id: teamId, time_filter: time, slot } }, { signal }).then(
    (r) => r.slots,
  );

export const trendQuery = (teamId: string, time: TimeChoice, slot: number) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'trend', time, slot],
    queryFn: ({ signal }) => getActivityTrend(teamId, time, slot, signal),
    placeholderData: keepPreviousData,
  });

export function useTrend(time: TimeChoice, slot: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...trendQuery(teamId, time, slot), enabled });
}
