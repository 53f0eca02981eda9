import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMemberInfo as memberInfoEndpoint } from '@flywheel/shared/endpoints/member-detail';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { memberKey } from './member-key.ts';

/** GET /member/memberinfo/{team}/{member}: the left panel (404 when the id is not a member). */
export const getMemberInfo = (teamId: string, memberId: string, signal?: AbortSignal) =>
  callEndpoint(memberInfoEndpoint, { params: { teamId, memberId } }, { signal }).then((a) => a.data);

export const memberInfoQuery = (teamId: string, memberId: string) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'info'],
    queryFn: ({ signal }) => getMemberInfo(teamId, memberId, signal),
  });

export function useMemberInfo(memberId: string) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberInfoQuery(teamId, memberId), enabled: enabled && memberId !== '' });
}
