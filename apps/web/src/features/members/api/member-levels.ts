import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMemberLevels } from '@flywheel/shared/endpoints/members-list';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope, workspaceKey } from '../../../entities/workspace/index.ts';

/** GET /members/levels: how many members hold each engagement level (the level filter's counts). */
export const levelCountsQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...workspaceKey(teamId), 'member-levels'],
    queryFn: ({ signal }) => callEndpoint(getMemberLevels, { query: { team_id: teamId } }, { signal }),
    staleTime: 60_000,
  });

export function useLevelCounts() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...levelCountsQuery(teamId), enabled });
}
