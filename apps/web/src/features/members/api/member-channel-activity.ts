import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { channelTotalsSchema } from '@flywheel/shared/members';
import { dataItem, requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, memberKey } from './member-key.ts';

const answer = dataItem(z.array(channelTotalsSchema));

/** GET /member/channelactivity/{team}/{member}/{days}: totals per channel. */
export const getMemberChannelActivity = (
  teamId: string,
  memberId: string,
  days: number,
  signal?: AbortSignal,
) => requestData(`/member/channelactivity/${enc(teamId)}/${enc(memberId)}/${days}`, answer, { signal });

export const memberChannelActivityQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'channel-activity', days],
    queryFn: ({ signal }) => getMemberChannelActivity(teamId, memberId, days, signal),
  });

export function useMemberChannelActivity(memberId: string, days: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberChannelActivityQuery(teamId, memberId, days), enabled: enabled });
}
