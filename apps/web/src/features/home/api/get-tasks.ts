import { queryOptions, useQuery } from '@tanstack/react-query';
import { tasksResponse } from '@flywheel/shared/analytics';
import { requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, homeKey } from './keys.ts';

/** GET /homepage/gettasks/{team}: the task board. */
export const getTasks = (teamId: string, signal?: AbortSignal) =>
  requestData(`/homepage/gettasks/${enc(teamId)}`, tasksResponse, { signal });

export const tasksQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'tasks'],
    queryFn: ({ signal }) => getTasks(teamId, signal),
  });

export function useTasks() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...tasksQuery(teamId), enabled });
}
