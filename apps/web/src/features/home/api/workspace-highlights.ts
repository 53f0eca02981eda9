import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { workspaceHighlights } from '@flywheel/shared/endpoints/home';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { rangeQueryOf, type TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { homeKey } from './keys.ts';

/** GET /homepage/workspacehighlights/{team}?range: reactions, messages and replies per day. */
export const getHighlights = (teamId: string, time: TimeChoice, signal?: AbortSignal) =>
  callEndpoint(workspaceHighlights, { params: { teamId }, query: rangeQueryOf(time) }, { signal }).then(
    (a) => a.data,
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
