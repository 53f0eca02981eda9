import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createWorkflow,
  deleteWorkflow,
  getWorkflows,
  pauseWorkflow,
} from '@flywheel/shared/endpoints/workflows';
import type { CreateWorkflowRequest, WorkflowRow } from '@flywheel/shared/workflows';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam, useTeamScope } from '../../../entities/workspace/index.ts';
import { workflowsKey } from './keys.ts';

const listKey = (teamId: string) => [...workflowsKey(teamId), 'list'] as const;

/** GET /workflows/getworkflows/{team_id}: the workspace's workflows, newest first. */
export function useWorkflows() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: listKey(teamId),
    queryFn: ({ signal }) =>
      callEndpoint(getWorkflows, { params: { teamId } }, { signal }).then((r) => r.data),
    enabled,
  });
}

/** POST /workflows/createworkflow: the new workflow joins the list (first: newest first). */
export function useCreateWorkflow() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWorkflowRequest) => callEndpoint(createWorkflow, { body }, { idempotent: true }),
    onSuccess: (res) =>
      qc.setQueryData<WorkflowRow[]>(listKey(teamId), (rows) => (rows ? [res.data, ...rows] : rows)),
  });
}

/** PATCH /workflows/pauseworkflow: Activate (status true) or Stop (false); the row's status changes in place. */
export function usePauseWorkflow() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { workflowId: number; status: boolean }) =>
      callEndpoint(pauseWorkflow, {
        body: { team_id: teamId, workflow_id: v.workflowId, status: v.status },
      }),
    onSuccess: (res) =>
      qc.setQueryData<WorkflowRow[]>(listKey(teamId), (rows) =>
        rows?.map((r) => (r.workflow_id === res.data.workflow_id ? { ...r, status: res.data.status } : r)),
      ),
  });
}

/** DELETE /workflows/{team_id}/{workflow_id}: the row leaves the list; its pending steps are cancelled. */
export function useDeleteWorkflow() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (workflowId: number) => callEndpoint(deleteWorkflow, { params: { teamId, workflowId } }),
    onSuccess: (_res, workflowId) =>
      qc.setQueryData<WorkflowRow[]>(listKey(teamId), (rows) =>
        rows?.filter((r) => r.workflow_id !== workflowId),
      ),
  });
}
