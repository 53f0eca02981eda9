import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WorkspaceStatus } from '@flywheel/shared/directory';
import { getAuthorizedAdmins, getChannels } from '@flywheel/shared/endpoints/directory';
import { workspaceStatus } from '@flywheel/shared/endpoints/workspaces';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { currentWorkspace, useSession } from '../../lib/session.ts';

/*
 * What login loads for the current workspace: channels and authorized admins (its tags: entities/tags), plus
 * the connection and history-import status, and the current team every workspace query is keyed by. Many
 * features read these, so they live here (a feature may not import another feature). Every key starts with
 * ['workspace', teamId]: invalidating that prefix refreshes everything a workspace shows.
 */

const MINUTE = 60_000;

export const workspaceKey = (teamId: string) => ['workspace', teamId] as const;

export const channelsQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...workspaceKey(teamId), 'channels'],
    queryFn: ({ signal }) =>
      callEndpoint(getChannels, { params: { teamId } }, { signal }).then((a) => a.data),
    staleTime: 10 * MINUTE,
  });

export const authorizedAdminsQuery = (teamId: string, userId: string) =>
  queryOptions({
    queryKey: [...workspaceKey(teamId), 'authorized-admins', userId],
    queryFn: ({ signal }) =>
      callEndpoint(getAuthorizedAdmins, { params: { teamId, userId } }, { signal }).then((a) => a.data),
    staleTime: 10 * MINUTE,
  });

/** Poll every 3 s while the history import runs, every 15 s before it starts, otherwise once a minute. */
export const STATUS_POLL_MS = { running: 3_000, pending: 15_000, idle: 60_000 } as const;

export function statusPollInterval(status: WorkspaceStatus | undefined): number {
  if (status?.backfill?.status === 'running') return STATUS_POLL_MS.running;
  if (status && status.status === 'active' && status.backfill === null) return STATUS_POLL_MS.pending;
  return STATUS_POLL_MS.idle;
}

export const workspaceStatusQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...workspaceKey(teamId), 'status'],
    queryFn: ({ signal }) => callEndpoint(workspaceStatus, { params: { teamId } }, { signal }),
    // An answer younger than the fastest poll is not asked for again when another part mounts (a cold load asks
    // for it before the frame renders: app/warm-start.ts).
    staleTime: STATUS_POLL_MS.running,
    // Polling is not something the user waits for: the top bar's loading indicator ignores it.
    meta: { background: true },
    refetchInterval: (query) => statusPollInterval(query.state.data),
  });

/** The selected workspace's team_id and the signed-in user's id ('' when there is none). */
export function useCurrentTeam(): { teamId: string; userId: string } {
  const session = useSession();
  return { teamId: currentWorkspace(session)?.team_id ?? '', userId: session?.userid ?? '' };
}

/** The current team for a team-scoped query: its id, and `enabled` only once a workspace is selected. */
export function useTeamScope(): { teamId: string; enabled: boolean } {
  const { teamId } = useCurrentTeam();
  return { teamId, enabled: teamId !== '' };
}

/** Refreshes everything the current workspace shows (members, tags, tables, member pages). */
export function useInvalidateWorkspace(): () => Promise<void> {
  const qc = useQueryClient();
  const { teamId } = useCurrentTeam();
  return () => qc.invalidateQueries({ queryKey: workspaceKey(teamId) });
}

export function useChannels() {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...channelsQuery(teamId), enabled: teamId !== '' });
}

export function useAuthorizedAdmins() {
  const { teamId, userId } = useCurrentTeam();
  return useQuery({ ...authorizedAdminsQuery(teamId, userId), enabled: teamId !== '' && userId !== '' });
}

export function useWorkspaceStatus() {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...workspaceStatusQuery(teamId), enabled: teamId !== '' });
}
