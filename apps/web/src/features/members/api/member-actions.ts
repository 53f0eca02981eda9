import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMemberLast7Days } from '@flywheel/shared/endpoints/member-detail';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { memberKey } from './member-key.ts';

/** GET /member/last7days/{team}/{member}: the last 7 days of messages, replies and reactions. */
export const getMemberActions = (teamId: string, memberId: string, signal?: AbortSignal) =>
  callEndpoint(getMemberLast7Days, { params: { teamId, memberId } }, { signal }).then((a) => a.data);

export const memberActionsQuery = (teamId: string, memberId: string) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'last7days'],
    queryFn: ({ signal }) => getMemberActions(teamId, memberId, signal),
  });

export function useMemberActions(memberId: string) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberActionsQuery(teamId, memberId), enabled: enabled });
}
