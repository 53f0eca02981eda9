import { useMutation, useQueryClient } from '@tanstack/react-query';
import { actionResponse, type CreateAutomationRequest } from '@flywheel/shared/actions';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { putRow } from './cache.ts';

/** POST /actions/createautomation: a Member Join trigger; the new row joins the Automate table. */
export function useCreateAutomation() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAutomationRequest) =>
      apiRequest('/actions/createautomation', { body, schema: actionResponse, idempotent: true }),
    onSuccess: (res) => putRow(qc, teamId, res.data),
  });
}
