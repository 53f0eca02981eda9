import { queryOptions, useQuery } from '@tanstack/react-query';
import { getMemberChannelActivity as channelActivityEndpoint } from '@flywheel/shared/endpoints/member-detail';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { memberKey } from './member-key.ts';

/** GET /member/channelactivity/{team}/{member}/{days}: totals per channel. */
export const getMemberChannelActivity = (
  teamId: string,
  memberId: string,
  days: number,
  signal?: AbortSignal,
) =>
  callEndpoint(channelActivityEndpoint, { params: { teamId, memberId, days } }, { signal }).then(
    (a) => a.data,
  );

export const memberChannelActivityQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'channel-activity', days],
    queryFn: ({ signal }) => getMemberChannelActivity(teamId, memberId, days, signal),
  });

export function useMemberChannelActivity(memberId: string, days: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberChannelActivityQuery(teamId, memberId, days), enabled: enabled });
}
