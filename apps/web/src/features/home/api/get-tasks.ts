import { queryOptions, useQuery } from '@tanstack/react-query';
import { getTasks as tasksEndpoint } from '@flywheel/shared/endpoints/home';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { homeKey } from './keys.ts';

/** GET /homepage/gettasks/{team}: the task board. */
export const getTasks = (teamId: string, signal?: AbortSignal) =>
  callEndpoint(tasksEndpoint, { params: { teamId } }, { signal }).then((a) => a.data);

export const tasksQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'tasks'],
    queryFn: ({ signal }) => getTasks(teamId, signal),
  });

export function useTasks() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...tasksQuery(teamId), enabled });
}
