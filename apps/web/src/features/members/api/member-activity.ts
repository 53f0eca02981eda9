import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { dailyActivitySchema } from '@flywheel/shared/members';
import { dataItem, requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, memberKey } from './member-key.ts';

const answer = dataItem(z.array(dailyActivitySchema));

/** GET /member/activity/{team}/{member}/{days}: messages, replies and reactions per day. */
export const getMemberActivity = (teamId: string, memberId: string, days: number, signal?: AbortSignal) =>
  requestData(`/member/activity/${enc(teamId)}/${enc(memberId)}/${days}`, answer, { signal });

export const memberActivityQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'activity', days],
    queryFn: ({ signal }) => getMemberActivity(teamId, memberId, days, signal),
  });

export function useMemberActivity(memberId: string, days: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberActivityQuery(teamId, memberId, days), enabled: enabled });
}
