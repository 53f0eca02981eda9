import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@flywheel/shared/http';
import type { RevokeInvitationRequest } from '@flywheel/shared/invitations';
import {
  apiKeysResponse,
  createApiKeyResponse,
  teamResponse,
  type CreateApiKeyRequest,
  type RemoveAdminRequest,
  type RevokeApiKeyRequest,
  type SetRoleRequest,
} from '@flywheel/shared/roles';
import { apiRequest } from '../../../lib/api-client.ts';

const teamKey = (teamId: string) => ['workspaces', 'team', teamId];
const keysKey = (teamId: string) => ['apikeys', teamId];

/** GET /workspaces/team/:teamId: the admins with their roles and the pending invitations. */
export function useTeam(teamId: string) {
  return useQuery({
    queryKey: teamKey(teamId),
    queryFn: ({ signal }) =>
      apiRequest(`/workspaces/team/${encodeURIComponent(teamId)}`, { schema: teamResponse, signal }),
  });
}

/** A POST that changes the team (Owner), refreshing the list after. */
function useTeamChange<B extends { team_id: string }>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => apiRequest<MessageResponse>(path, { body }),
    onSuccess: (_res, body) => client.invalidateQueries({ queryKey: teamKey(body.team_id) }),
  });
}

export const useSetRole = () => useTeamChange<SetRoleRequest>('/workspaces/setrole');
export const useRemoveAdmin = () => useTeamChange<RemoveAdminRequest>('/workspaces/removeadmin');
export const useRevokeInvitation = () =>
  useTeamChange<RevokeInvitationRequest>('/workspaces/revokeinvitation');
export const invalidateTeam = (client: ReturnType<typeof useQueryClient>, teamId: string) =>
  client.invalidateQueries({ queryKey: teamKey(teamId) });

/** GET /apikeys/:teamId */
export function useApiKeys(teamId: string) {
  return useQuery({
    queryKey: keysKey(teamId),
    queryFn: ({ signal }) =>
      apiRequest(`/apikeys/${encodeURIComponent(teamId)}`, { schema: apiKeysResponse, signal }),
  });
}

/** POST /apikeys/create: the answer carries the secret, shown once. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyRequest) =>
      apiRequest('/apikeys/create', { body, schema: createApiKeyResponse }),
    onSuccess: (_res, body) => client.invalidateQueries({ queryKey: keysKey(body.team_id) }),
  });
}

/** POST /apikeys/revoke */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RevokeApiKeyRequest) => apiRequest<MessageResponse>('/apikeys/revoke', { body }),
    onSuccess: (_res, body) => client.invalidateQueries({ queryKey: keysKey(body.team_id) }),
  });
}
