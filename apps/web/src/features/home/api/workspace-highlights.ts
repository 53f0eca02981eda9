import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { activityRowsResponse } from '@flywheel/shared/analytics';
import { requestData } from '../../../lib/api-data.ts';
import { rangeQueryString, type TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, homeKey } from './keys.ts';

/** GET /homepage/workspacehighlights/{team}?range: reactions, messages and replies per day. */
export const getHighlights = (teamId: string, time: TimeChoice, signal?: AbortSignal) =>
  requestData(
    `/homepage/workspacehighlights/${enc(teamId)}?${rangeQueryString(time)}`,
    activityRowsResponse,
    {
      signal,
    },
  );

export const highlightsQuery = (teamId: string, time: TimeChoice) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'highlights', time],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => getHighlights(teamId, time, signal),
  });

export function useHighlights(time: TimeChoice) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...highlightsQuery(teamId, time), enabled });
}
