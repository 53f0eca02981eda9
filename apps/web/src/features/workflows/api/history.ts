import { useQuery } from '@tanstack/react-query';
import { actionHistoryResponse, triggerHistoryResponse } from '@flywheel/shared/workflows';
import { apiRequest } from '../../../lib/api-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { workflowsKey } from './keys.ts';

const enc = encodeURIComponent;
const isId = (n: number | null): n is number => n !== null && Number.isSafeInteger(n) && n > 0;

/** GET /workflows/gettriggerinfo/{team_id}/{workflow_id}: when the trigger fired, and for whom. */
export function useTriggerHistory(workflowId: number | null) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: [...workflowsKey(teamId), 'trigger-history', workflowId ?? 0],
    queryFn: ({ signal }) =>
      apiRequest(`/workflows/gettriggerinfo/${enc(teamId)}/${workflowId}`, {
        schema: triggerHistoryResponse,
        signal,
      }).then((r) => r.data),
    enabled: enabled && isId(workflowId),
  });
}

/** GET /workflows/getuserdetail/{team_id}/{workflow_id}/{task_id}: one task's sends (and pending steps). */
export function useActionHistory(workflowId: number | null, taskId: number | null) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: [...workflowsKey(teamId), 'action-history', workflowId ?? 0, taskId ?? 0],
    queryFn: ({ signal }) =>
      apiRequest(`/workflows/getuserdetail/${enc(teamId)}/${workflowId}/${taskId}`, {
        schema: actionHistoryResponse,
        signal,
      }).then((r) => r.data),
    enabled: enabled && isId(workflowId) && isId(taskId),
  });
}
