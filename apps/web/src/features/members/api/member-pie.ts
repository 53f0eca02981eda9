import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { pieRowSchema } from '@flywheel/shared/members';
import { dataItem, requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, memberKey } from './member-key.ts';

const answer = dataItem(z.array(pieRowSchema));

/** GET /member/piegraph/{team}/{member}/{days}: activity per channel (the pie). */
export const getMemberPie = (teamId: string, memberId: string, days: number, signal?: AbortSignal) =>
  requestData(`/member/piegraph/${enc(teamId)}/${enc(memberId)}/${days}`, answer, { signal });

export const memberPieQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'pie', days],
    queryFn: ({ signal }) => getMemberPie(teamId, memberId, days, signal),
  });

export function useMemberPie(memberId: string, days: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberPieQuery(teamId, memberId, days), enabled: enabled });
}
