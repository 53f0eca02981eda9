import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { channelActivityResponse } from '@flywheel/shared/analytics';
import { requestData } from '../../../lib/api-data.ts';
import { rangeQueryString, type TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, homeKey } from './keys.ts';

/** GET /homepage/getchanneldata/{team}?range: totals per channel (Activity and Top Channels bars). */
export const getChannelData = (teamId: string, time: TimeChoice, signal?: AbortSignal) =>
  requestData(`/homepage/getchanneldata/${enc(teamId)}?${rangeQueryString(time)}`, channelActivityResponse, {
    signal,
  });

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
