import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { actionLogRowSchema } from '@flywheel/shared/members';
import { dataItem, requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, memberKey } from './member-key.ts';

const answer = dataItem(z.array(actionLogRowSchema));

/** GET /member/last7days/{team}/{member}: the last 7 days of messages, replies and reactions. */
export const getMemberActions = (teamId: string, memberId: string, signal?: AbortSignal) =>
  requestData(`/member/last7days/${enc(teamId)}/${enc(memberId)}`, answer, { signal });

export const memberActionsQuery = (teamId: string, memberId: string) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'last7days'],
    queryFn: ({ signal }) => getMemberActions(teamId, memberId, signal),
  });

export function useMemberActions(memberId: string) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...memberActionsQuery(teamId, memberId), enabled: enabled });
}
