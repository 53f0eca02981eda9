import { queryOptions, useQuery } from '@tanstack/react-query';
import { getTags } from '@flywheel/shared/endpoints/directory';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam, workspaceKey } from '../workspace/index.ts';

/* The workspace's tags: login loads them with the rest of the workspace's data (entities/workspace). */

export const tagsQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...workspaceKey(teamId), 'tags'],
    queryFn: ({ signal }) => callEndpoint(getTags, { params: { teamId } }, { signal }).then((a) => a.data),
    staleTime: 5 * 60_000,
  });

export function useTags() {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...tagsQuery(teamId), enabled: teamId !== '' });
}
