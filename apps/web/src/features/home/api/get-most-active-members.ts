import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getMostActiveMembers as mostActiveEndpoint } from '@flywheel/shared/endpoints/home';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import type { TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { homeKey } from './keys.ts';

/** POST /homepage/getmostactivemembers: the most active members of the window (Top Performing Members). */
export const getMostActiveMembers = (teamId: string, time: TimeChoice, signal?: AbortSignal) =>
  callEndpoint(mostActiveEndpoint, { body: { team_id: teamId, time_filter: time } }, { signal }).then(
    (a) => a.data,
  );

export const topMembersQuery = (teamId: string, time: TimeChoice) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'top-members', time],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => getMostActiveMembers(teamId, time, signal),
  });

export function useTopMembers(time: TimeChoice) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...topMembersQuery(teamId, time), enabled });
}
