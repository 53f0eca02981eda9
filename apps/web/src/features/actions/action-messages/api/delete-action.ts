import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteAction } from '@flywheel/shared/endpoints/actions';
import { callEndpoint } from '../../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../../entities/workspace/index.ts';
import { dropRow } from './cache.ts';

/** DELETE /actions/deleteaction/:teamId/:id: an automation or schedule (its runs not sent yet are cancelled). */
export function useDeleteAction() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(deleteAction, { params: { teamId, id } }),
    onSuccess: (_res, id) => dropRow(qc, teamId, id),
  });
}
