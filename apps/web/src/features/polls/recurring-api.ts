import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createRecurringPoll,
  deleteRecurringPoll,
  getRecurringPolls,
} from '@flywheel/shared/endpoints/polls';
import type { CreateRecurringPollRequest } from '@flywheel/shared/polls';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { pollsKey } from './api.ts';

/** The recurring polls of a workspace (under the Poll Table's key: a new occurrence refreshes both). */
const recurringKey = (teamId: string) => [...pollsKey(teamId), 'recurring'] as const;

/** GET /poll/getrecurringpolls/:teamId: each with its schedule, next run and the polls it posted. */
export function useRecurringPolls() {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: recurringKey(teamId),
    queryFn: ({ signal }) =>
      callEndpoint(getRecurringPolls, { params: { teamId } }, { signal }).then((r) => r.data),
    enabled: teamId !== '',
    refetchInterval: 60_000,
  });
}

/** POST /poll/createrecurringpoll. */
export function useCreateRecurringPoll() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRecurringPollRequest) =>
      callEndpoint(createRecurringPoll, { body }, { idempotent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: recurringKey(teamId) }),
  });
}

/** DELETE /poll/deleterecurringpoll/:id/:teamId: no later poll; the row goes when the answer comes back. */
export function useDeleteRecurringPoll() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(deleteRecurringPoll, { params: { recurringId: id, teamId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: recurringKey(teamId) }),
  });
}
