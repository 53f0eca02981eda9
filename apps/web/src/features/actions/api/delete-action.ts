import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { dropRow } from './cache.ts';

/** DELETE /actions/deleteaction/:teamId/:id: an automation or schedule (its runs not sent yet are cancelled). */
export function useDeleteAction() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`/actions/deleteaction/${encodeURIComponent(teamId)}/${id}`, {
        method: 'DELETE',
        schema: messageResponse,
      }),
    onSuccess: (_res, id) => dropRow(qc, teamId, id),
  });
}
