import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_RESPONSE_DAYS, responseTimesResponse } from '@flywheel/shared/questions';
import { apiRequest } from '../../../lib/api-client.ts';
import { rangeQueryString, type TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey } from './keys.ts';

/** The Response Time card's first time filter: the last 90 days. */
export const DEFAULT_RESPONSE_TIME: TimeChoice = { type: 'static', days: DEFAULT_RESPONSE_DAYS };

/** GET /analytics/getresponsetimes: questions' time to first answer, overall, per week and per channel. */
export const responseTimesQuery = (teamId: string, time: TimeChoice) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'response-times', time],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      apiRequest(`/analytics/getresponsetimes/${encodeURIComponent(teamId)}?${rangeQueryString(time)}`, {
        schema: responseTimesResponse,
        signal,
      }),
  });

export function useResponseTimes(time: TimeChoice) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...responseTimesQuery(teamId, time), enabled });
}
