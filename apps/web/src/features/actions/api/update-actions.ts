import { useMutation, useQueryClient } from '@tanstack/react-query';
import { actionResponse, type UpdateActionRequest } from '@flywheel/shared/actions';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { putRow } from './cache.ts';

/** PATCH /actions/updateactions: DM members, channels and message of a trigger; its row changes in place. */
export function useUpdateAction() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateActionRequest) =>
      apiRequest('/actions/updateactions', { method: 'PATCH', body, schema: actionResponse }),
    onSuccess: (res) => putRow(qc, teamId, res.data),
  });
}
