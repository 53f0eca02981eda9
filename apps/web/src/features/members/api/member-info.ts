import { queryOptions, useQuery } from '@tanstack/react-query';
import { memberInfoSchema } from '@flywheel/shared/members';
import { dataItem, requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, memberKey } from './member-key.ts';

const answer = dataItem(memberInfoSchema);

/** GET /member/memberinfo/{team}/{member}: the left panel (404 when the id is not a member). */
export const getMemberInfo = (teamId: string, memberId: string, signal?: AbortSignal) =>
  requestData(`/member/memberinfo/${enc(teamId)}/${enc(memberId)}`, answer, { signal });

export const memberInfoQuery = (teamId: string, memberId: string) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'info'],
    queryFn: ({ signal }) => getMemberInfo(teamId, memberId, signal),
  });

export function useMemberInfo(memberId: string) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberInfoQuery(teamId, memberId), enabled: enabled && memberId !== '' });
}
