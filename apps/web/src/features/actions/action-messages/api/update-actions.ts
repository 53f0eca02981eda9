import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateActionRequest } from '@flywheel/shared/actions';
import { updateAction } from '@flywheel/shared/endpoints/actions';
import { callEndpoint } from '../../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../../entities/workspace/index.ts';
import { putRow } from './cache.ts';

/** PATCH /actions/updateactions: DM members, channels and message of a trigger; its row changes in place. */
export function useUpdateAction() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateActionRequest) => callEndpoint(updateAction, { body }),
    onSuccess: (res) => putRow(qc, teamId, res.data),
  });
}
