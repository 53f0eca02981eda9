import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getResponseTimes } from '@flywheel/shared/endpoints/conversations';
import { DEFAULT_RESPONSE_DAYS } from '@flywheel/shared/questions';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { rangeQueryOf, type TimeChoice } from '../../../lib/time-filter.ts';
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
      callEndpoint(getResponseTimes, { params: { teamId }, query: rangeQueryOf(time) }, { signal }),
  });

export function useResponseTimes(time: TimeChoice) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...responseTimesQuery(teamId, time), enabled });
}
