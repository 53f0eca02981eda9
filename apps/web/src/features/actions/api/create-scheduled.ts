import { useMutation, useQueryClient } from '@tanstack/react-query';
import { actionResponse, type CreateScheduledRequest } from '@flywheel/shared/actions';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { putRow } from './cache.ts';

/** POST /actions/createscheduled: a scheduled message; the new row joins the Schedule table. */
export function useCreateScheduled() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateScheduledRequest) =>
      apiRequest('/actions/createscheduled', { body, schema: actionResponse, idempotent: true }),
    onSuccess: (res) => putRow(qc, teamId, res.data),
  });
}
