import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateScheduledRequest } from '@flywheel/shared/actions';
import { createScheduled } from '@flywheel/shared/endpoints/actions';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { putRow } from '../action-messages/api/cache.ts';

/** POST /actions/createscheduled: a scheduled message; the new row joins the Schedule table. */
export function useCreateScheduled() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateScheduledRequest) =>
      callEndpoint(createScheduled, { body }, { idempotent: true }),
    onSuccess: (res) => putRow(qc, teamId, res.data),
  });
}
