import { queryOptions, useQuery } from '@tanstack/react-query';
import { actionsListResponse } from '@flywheel/shared/actions';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { actionsKey, type ActionKind } from './actions-key.ts';

const PATH: Record<ActionKind, string> = {
  automation: '/actions/getautomations',
  schedule: '/actions/getscheduled',
};

/** GET /actions/getautomations/:teamId and /actions/getscheduled/:teamId (newest first). */
export const actionsQuery = (teamId: string, kind: ActionKind) =>
  queryOptions({
    queryKey: actionsKey(teamId, kind),
    queryFn: ({ signal }) =>
      apiRequest(`${PATH[kind]}/${encodeURIComponent(teamId)}`, { schema: actionsListResponse, signal }).then(
        (r) => r.data,
      ),
  });

export function useActions(kind: ActionKind) {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...actionsQuery(teamId, kind), enabled: teamId !== '' });
}
