import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tag } from '@flywheel/shared/directory';
import type {
  ActionLogRow,
  ChannelTotals,
  DailyActivity,
  MemberInfo,
  MembersDataRequest,
  MembersDataResponse,
  MembersExportRequest,
  PieRow,
} from '@flywheel/shared/members';
import { MEMBERS_CSV_TITLE } from '@flywheel/shared/members';
import { API_BASE, ApiError, apiRequest } from '../../lib/api-client.ts';
import { getSession } from '../../lib/session.ts';
import { useCurrentTeam, workspaceKey } from '../../lib/workspace-data.ts';

const enc = encodeURIComponent;
type Data<T> = { data: T };

/* Members Data table */

export const membersDataQuery = (request: MembersDataRequest) =>
  queryOptions({
    queryKey: [...workspaceKey(request.team_id), 'members-data', request],
    queryFn: ({ signal }) =>
      apiRequest<MembersDataResponse>('/members/getmembersdata', { body: request, signal }),
    placeholderData: keepPreviousData,
  });

export function useMembersData(request: MembersDataRequest) {
  return useQuery({ ...membersDataQuery(request), enabled: request.team_id !== '' });
}

/** POST /members/exportmembersdata, saved as 'Members Data.csv' (the server streams the CSV). */
export async function downloadMembersCsv(request: MembersExportRequest): Promise<void> {
  const token = getSession()?.token;
  const res = await fetch(`${API_BASE}/members/exportmembersdata`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(request),
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: string; code?: string };
    throw new ApiError(body.message ?? 'something went wrong', res.status, body.code);
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${MEMBERS_CSV_TITLE}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/* Tags */

/** Refreshes everything the workspace shows (members, tags, the table and member pages). */
function useRefreshWorkspace() {
  const qc = useQueryClient();
  const { teamId } = useCurrentTeam();
  return () => qc.invalidateQueries({ queryKey: workspaceKey(teamId) });
}

export function useCreateTag() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest<{ data: Tag; message: string }>('/tags/createtag', { body: { team_id: teamId, name } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...workspaceKey(teamId), 'tags'] }),
  });
}

export function useAddTags() {
  const { teamId } = useCurrentTeam();
  const refresh = useRefreshWorkspace();
  return useMutation({
    mutationFn: (v: { tags: Tag[]; memberIds: string[] }) =>
      apiRequest<{ message: string; added: number }>('/tags/addtagtousers', {
        body: { team_id: teamId, tags: v.tags, users: v.memberIds.map((id) => ({ id })) },
      }),
    onSuccess: refresh,
  });
}

export function useRemoveTag() {
  const { teamId } = useCurrentTeam();
  const refresh = useRefreshWorkspace();
  return useMutation({
    mutationFn: (v: { memberId: string; tagId: number }) =>
      apiRequest<{ message: string }>(
        `/tags/removetagfromuser/${enc(teamId)}/${enc(v.memberId)}/${v.tagId}`,
        {
          method: 'DELETE',
        },
      ),
    onSuccess: refresh,
  });
}

/* Member detail */

const memberKey = (teamId: string, memberId: string) =>
  [...workspaceKey(teamId), 'member', memberId] as const;
const get = <T>(path: string, signal: AbortSignal) =>
  apiRequest<Data<T>>(path, { signal }).then((r) => r.data);

export const memberInfoQuery = (teamId: string, memberId: string) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'info'],
    queryFn: ({ signal }) => get<MemberInfo>(`/member/memberinfo/${enc(teamId)}/${enc(memberId)}`, signal),
  });

export const memberActivityQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'activity', days],
    queryFn: ({ signal }) =>
      get<DailyActivity[]>(`/member/activity/${enc(teamId)}/${enc(memberId)}/${days}`, signal),
  });

export const memberPieQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'pie', days],
    queryFn: ({ signal }) =>
      get<PieRow[]>(`/member/piegraph/${enc(teamId)}/${enc(memberId)}/${days}`, signal),
  });

export const memberChannelActivityQuery = (teamId: string, memberId: string, days: number) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'channel-activity', days],
    queryFn: ({ signal }) =>
      get<ChannelTotals[]>(`/member/channelactivity/${enc(teamId)}/${enc(memberId)}/${days}`, signal),
  });

export const memberActionsQuery = (teamId: string, memberId: string) =>
  queryOptions({
    queryKey: [...memberKey(teamId, memberId), 'last7days'],
    queryFn: ({ signal }) => get<ActionLogRow[]>(`/member/last7days/${enc(teamId)}/${enc(memberId)}`, signal),
  });

export function useMemberInfo(memberId: string) {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...memberInfoQuery(teamId, memberId), enabled: teamId !== '' && memberId !== '' });
}

export function useMemberActivity(memberId: string, days: number) {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...memberActivityQuery(teamId, memberId, days), enabled: teamId !== '' });
}

export function useMemberPie(memberId: string, days: number) {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...memberPieQuery(teamId, memberId, days), enabled: teamId !== '' });
}

export function useMemberChannelActivity(memberId: string, days: number) {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...memberChannelActivityQuery(teamId, memberId, days), enabled: teamId !== '' });
}

export function useMemberActions(memberId: string) {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...memberActionsQuery(teamId, memberId), enabled: teamId !== '' });
}
