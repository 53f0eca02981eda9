import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DigestSettingsBody } from '@flywheel/shared/digest';
import { getDigest, getDigestSettings, saveDigestSettings } from '@flywheel/shared/endpoints/digest';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useTeamScope, workspaceKey } from '../../entities/workspace/index.ts';

const digestKey = (teamId: string) => [...workspaceKey(teamId), 'digest'] as const;

/** GET /digest/:teamId?week=: the digest of the week a day falls in (default: the last whole week). */
export const digestQuery = (teamId: string, week: string | null) =>
  queryOptions({
    queryKey: [...digestKey(teamId), 'week', week ?? 'last'],
    queryFn: ({ signal }) =>
      callEndpoint(getDigest, { params: { teamId }, query: week ? { week } : {} }, { signal }),
    placeholderData: keepPreviousData,
  });

export function useDigest(week: string | null) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...digestQuery(teamId, week), enabled });
}

/** GET /digest/settings/:teamId: the caller's own subscription. */
export const digestSettingsQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...digestKey(teamId), 'settings'],
    queryFn: ({ signal }) => callEndpoint(getDigestSettings, { params: { teamId } }, { signal }),
  });

export function useDigestSettings() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...digestSettingsQuery(teamId), enabled });
}

/** POST /digest/settings: turns the caller's digest on or off, and when it goes out. */
export function useSaveDigestSettings() {
  const { teamId } = useTeamScope();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<DigestSettingsBody, 'team_id'>) =>
      callEndpoint(saveDigestSettings, { body: { team_id: teamId, ...body } }),
    onSuccess: (data) => qc.setQueryData(digestSettingsQuery(teamId).queryKey, data),
  });
}
