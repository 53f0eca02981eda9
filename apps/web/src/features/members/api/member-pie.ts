import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMemberPieGraph } from '@flywheel/shared/endpoints/member-detail';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { memberKey } from './member-key.ts';

/** GET /member/piegraph/{team}/{member}/{days}: activity per channel (the pie). */
export const getMemberPie = (teamId: string, memberId: string, days: number, signal?: AbortSignal) =>
  callEndpoint(getMemberPieGraph, { params: { teamId, memberId, days } }, { signal }).then((a) => a.data);

export const memberPieQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'pie', days],
    queryFn: ({ signal }) => getMemberPie(teamId, memberId, days, signal),
  });

export function useMemberPie(memberId: string, days: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberPieQuery(teamId, memberId, days), enabled: enabled });
}
