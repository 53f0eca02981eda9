import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MembersDataRequest } from '@flywheel/shared/members';
import { getMembersData as getMembersDataEndpoint } from '@flywheel/shared/endpoints/members-list';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { workspaceKey } from '../../../entities/workspace/index.ts';

/** POST /members/getmembersdata: one page of the Members Data table (the server filters, sorts and pages). */
export const getMembersData = (request: MembersDataRequest, signal?: AbortSignal) =>
  callEndpoint(getMembersDataEndpoint, { body: request }, { signal });

export const membersDataQuery = (request: MembersDataRequest) =>
  queryOptions({
    queryKey: [...workspaceKey(request.team_id), 'members-data', request],
    queryFn: ({ signal }) => getMembersData(request, signal),
    placeholderData: keepPreviousData,
  });

export function useMembersData(request: MembersDataRequest) {
  return useQuery({ ...membersDataQuery(request), enabled: request.team_id !== '' });
}
