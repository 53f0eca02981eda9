import { queryOptions, useQuery } from '@tanstack/react-query';
import { dataOf, tagSchema } from '@flywheel/shared/directory';
import { requestData } from '../../lib/api-data.ts';
import { useCurrentTeam, workspaceKey } from '../workspace/index.ts';

/* The workspace's tags: login loads them with the rest of the workspace's data (entities/workspace). */

export const tagsQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...workspaceKey(teamId), 'tags'],
    queryFn: ({ signal }) =>
      requestData(`/tags/gettags/${encodeURIComponent(teamId)}`, dataOf(tagSchema), { signal }),
    staleTime: 5 * 60_000,
  });

export function useTags() {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...tagsQuery(teamId), enabled: teamId !== '' });
}
