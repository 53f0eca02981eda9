import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateAutomationRequest } from '@flywheel/shared/actions';
import { createAutomation } from '@flywheel/shared/endpoints/actions';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { putRow } from '../action-messages/api/cache.ts';

/** POST /actions/createautomation: a Member Join trigger; the new row joins the Automate table. */
export function useCreateAutomation() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAutomationRequest) =>
      callEndpoint(createAutomation, { body }, { idempotent: true }),
    onSuccess: (res) => putRow(qc, teamId, res.data),
  });
}
