import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMemberActivity as activityEndpoint } from '@flywheel/shared/endpoints/member-detail';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { memberKey } from './member-key.ts';

/** GET /member/activity/{team}/{member}/{days}: messages, replies and reactions per day. */
export const getMemberActivity = (teamId: string, memberId: string, days: number, signal?: AbortSignal) =>
  callEndpoint(activityEndpoint, { params: { teamId, memberId, days } }, { signal }).then((a) => a.data);

export const memberActivityQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'activity', days],
    queryFn: ({ signal }) => getMemberActivity(teamId, memberId, days, signal),
  });

export function useMemberActivity(memberId: string, days: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberActivityQuery(teamId, memberId, days), enabled: enabled });
}
