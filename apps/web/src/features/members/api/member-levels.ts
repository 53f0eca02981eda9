import { queryOptions, useQuery } from '@tanstack/react-query';
import { levelCountsResponse } from '@flywheel/shared/levels';
import { apiRequest } from '../../../lib/api-client.ts';
import { useTeamScope, workspaceKey } from '../../../entities/workspace/index.ts';

/** GET /members/levels: how many members hold each engagement level (the level filter's counts). */
export const levelCountsQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...workspaceKey(teamId), 'member-levels'],
    queryFn: ({ signal }) =>
      apiRequest(`/members/levels?team_id=${encodeURIComponent(teamId)}`, {
        schema: levelCountsResponse,
        signal,
      }),
    staleTime: 60_000,
  });

export function useLevelCounts() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...levelCountsQuery(teamId), enabled });
}
