import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAutomations, getScheduled } from '@flywheel/shared/endpoints/actions';
import { callEndpoint } from '../../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../../entities/workspace/index.ts';
import { actionsKey, type ActionKind } from './actions-key.ts';

const LIST = { automation: getAutomations, schedule: getScheduled } as const;

/** GET /actions/getautomations/:teamId and /actions/getscheduled/:teamId (newest first). */
export const actionsQuery = (teamId: string, kind: ActionKind) =>
  queryOptions({
    queryKey: actionsKey(teamId, kind),
    queryFn: ({ signal }) => callEndpoint(LIST[kind], { params: { teamId } }, { signal }).then((r) => r.data),
  });

export function useActions(kind: ActionKind) {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...actionsQuery(teamId, kind), enabled: teamId !== '' });
}
