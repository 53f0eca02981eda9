import { useQuery } from '@tanstack/react-query';
import { getActionHistory, getTriggerHistory } from '@flywheel/shared/endpoints/workflows';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { workflowsKey } from './keys.ts';

const isId = (n: number | null): n is number => n !== null && Number.isSafeInteger(n) && n > 0;

/** GET /workflows/gettriggerinfo/{team_id}/{workflow_id}: when the trigger fired, and for whom. */
export function useTriggerHistory(workflowId: number | null) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: [...workflowsKey(teamId), 'trigger-history', workflowId ?? 0],
    queryFn: ({ signal }) =>
      callEndpoint(getTriggerHistory, { params: { teamId, workflowId: workflowId! } }, { signal }).then(
        (r) => r.data,
      ),
    enabled: enabled && isId(workflowId),
  });
}

/** GET /workflows/getuserdetail/{team_id}/{workflow_id}/{task_id}: one task's sends (and pending steps). */
export function useActionHistory(workflowId: number | null, taskId: number | null) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: [...workflowsKey(teamId), 'action-history', workflowId ?? 0, taskId ?? 0],
    queryFn: ({ signal }) =>
      callEndpoint(
        getActionHistory,
        { params: { teamId, workflowId: workflowId!, taskId: taskId! } },
        { signal },
      ).then((r) => r.data),
    enabled: enabled && isId(workflowId) && isId(taskId),
  });
}
