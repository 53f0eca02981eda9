import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import {
  recurringPollResponse,
  recurringPollsResponse,
  type CreateRecurringPollRequest,
} from '@flywheel/shared/polls';
import { apiRequest } from '../../lib/api-client.ts';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { pollsKey } from './api.ts';

/** The recurring polls of a workspace (under the Poll Table's key: a new occurrence refreshes both). */
const recurringKey = (teamId: string) => [...pollsKey(teamId), 'recurring'] as const;
const t = encodeURIComponent;

/** GET /poll/getrecurringpolls/:teamId: each with its schedule, next run and the polls it posted. */
export function useRecurringPolls() {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: recurringKey(teamId),
    queryFn: ({ signal }) =>
      apiRequest(`/poll/getrecurringpolls/${t(teamId)}`, { schema: recurringPollsResponse, signal }).then(
        (r) => r.data,
      ),
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
      apiRequest('/poll/createrecurringpoll', { body, schema: recurringPollResponse, idempotent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: recurringKey(teamId) }),
  });
}

/** DELETE /poll/deleterecurringpoll/:id/:teamId: no later poll; the row goes when the answer comes back. */
export function useDeleteRecurringPoll() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`/poll/deleterecurringpoll/${id}/${t(teamId)}`, {
        method: 'DELETE',
        schema: messageResponse,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: recurringKey(teamId) }),
  });
}
