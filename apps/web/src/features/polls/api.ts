import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  closePoll,
  createPoll,
  deletePoll,
  exportPollInfo,
  getPollInfo,
  getPollVoters,
  getPolls,
  reopenPoll,
} from '@flywheel/shared/endpoints/polls';
import type { CreatePollRequest, Poll } from '@flywheel/shared/polls';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam, workspaceKey } from '../../entities/workspace/index.ts';

/** The Poll Table of a workspace, and each poll's details and voters under it. */
export const pollsKey = (teamId: string) => [...workspaceKey(teamId), 'polls'] as const;

/** While a poll is open its counts move: the table and the details popup look again this often. */
export const POLL_REFRESH_MS = 5_000;

/** GET /poll/getpolls/:teamId (newest first). */
export const pollsQuery = (teamId: string) =>
  queryOptions({
    queryKey: pollsKey(teamId),
    queryFn: ({ signal }) => callEndpoint(getPolls, { params: { teamId } }, { signal }).then((r) => r.data),
  });

export function usePolls() {
  const { teamId } = useCurrentTeam();
  return useQuery({
    ...pollsQuery(teamId),
    enabled: teamId !== '',
    refetchInterval: (q) => (q.state.data?.some((p) => p.state !== 'expired') ? POLL_REFRESH_MS : false),
  });
}

/** GET /poll/getpollinfo/:pollId/:teamId: the question, options and counts. */
export function usePollInfo(pollId: number) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...pollsKey(teamId), pollId, 'info'],
    queryFn: ({ signal }) =>
      callEndpoint(getPollInfo, { params: { pollId, teamId } }, { signal }).then((r) => r.data),
    enabled: teamId !== '',
    refetchInterval: (q) => (q.state.data?.state === 'expired' ? false : POLL_REFRESH_MS),
  });
}

/** GET /poll/memberpollinfo/:pollId/:teamId: who voted for what. */
export function useVoters(pollId: number, live: boolean) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...pollsKey(teamId), pollId, 'voters'],
    queryFn: ({ signal }) =>
      callEndpoint(getPollVoters, { params: { pollId, teamId } }, { signal }).then((r) => r.data),
    enabled: teamId !== '',
    refetchInterval: live ? POLL_REFRESH_MS : false,
  });
}

/** GET /poll/exportpollinfo/:pollId/:teamId: the rows of PollDetails.csv. */
export const exportPollRows = (teamId: string, pollId: number) =>
  callEndpoint(exportPollInfo, { params: { pollId, teamId } }).then((r) => r.data);

/** POST /poll/createpoll: the new poll joins the table at the top. */
export function useCreatePoll() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePollRequest) => callEndpoint(createPoll, { body }, { idempotent: true }),
    onSuccess: (res) =>
      qc.setQueryData<Poll[]>(pollsKey(teamId), (rows) => (rows ? [res.data, ...rows] : rows)),
  });
}

/** POST /poll/closepoll or /poll/reopenpoll: the poll's row and details take the answer. */
export function usePollOpenClose() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ pollId, action }: { pollId: number; action: 'close' | 'reopen' }) =>
      action === 'close'
        ? callEndpoint(closePoll, { params: { pollId, teamId } })
        : callEndpoint(reopenPoll, { params: { pollId, teamId }, body: {} }),
    onSuccess: (res) => {
      qc.setQueryData<Poll[]>(pollsKey(teamId), (rows) =>
        rows?.map((p) => (p.id === res.data.id ? res.data : p)),
      );
      qc.setQueryData([...pollsKey(teamId), res.data.id, 'info'], res.data);
    },
  });
}

/** DELETE /poll/deletepoll/:pollId/:teamId: the row goes when the answer comes back. */
export function useDeletePoll() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (pollId: number) => callEndpoint(deletePoll, { params: { pollId, teamId } }),
    onSuccess: (_res, pollId) =>
      qc.setQueryData<Poll[]>(pollsKey(teamId), (rows) => rows?.filter((p) => p.id !== pollId)),
  });
}
