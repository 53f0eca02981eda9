import { useQuery } from '@tanstack/react-query';
import { levelCountsResponse } from '@flywheel/shared/levels';
import { apiRequest } from '../../../lib/api-client.ts';
import { useTeamScope, workspaceKey } from '../../../entities/workspace/index.ts';

/** GET /members/levels: how many members hold each engagement level (the level filter's counts). */
export function useLevelCounts() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: [...workspaceKey(teamId), 'member-levels'],
    queryFn: ({ signal }) =>
      apiRequest(`/members/levels?team_id=${encodeURIComponent(teamId)}`, {
        schema: levelCountsResponse,
        signal,
      }),
    enabled,
    staleTime: 60_000,
  });
}
