import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getChannelData as channelDataEndpoint } from '@flywheel/shared/endpoints/home';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { rangeQueryOf, type TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { homeKey } from './keys.ts';

/** GET /homepage/getchanneldata/{team}?range: totals per channel (Activity and Top Channels bars). */
export const getChannelData = (teamId: string, time: TimeChoice, signal?: AbortSignal) =>
  callEndpoint(channelDataEndpoint, { params: { teamId }, query: rangeQueryOf(time) }, { signal }).then(
    (a) => a.data,
  );

export const channelDataQuery = (teamId: string, time: TimeChoice) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'channels', time],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => getChannelData(teamId, time, signal),
  });

export function useChannelData(time: TimeChoice) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...channelDataQuery(teamId, time), enabled });
}
