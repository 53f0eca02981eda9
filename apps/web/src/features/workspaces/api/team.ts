import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { EndpointInput } from '@flywheel/shared/endpoint';
import {
  createApiKey,
  getTeam,
  listApiKeys,
  removeAdmin,
  revokeApiKey,
  revokeInvitation,
  setRole,
} from '@flywheel/shared/endpoints/workspaces';
import type { CreateApiKeyRequest, RevokeApiKeyRequest } from '@flywheel/shared/roles';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

const teamKey = (teamId: string) => ['workspaces', 'team', teamId];
const keysKey = (teamId: string) => ['apikeys', teamId];

/** GET /workspaces/team/:teamId: the admins with their roles and the pending invitations. */
export function useTeam(teamId: string) {
  return useQuery({
    queryKey: teamKey(teamId),
    queryFn: ({ signal }) => callEndpoint(getTeam, { params: { teamId } }, { signal }),
  });
}

/** A POST that changes the team (Owner), refreshing the list after. */
function useTeamChange<E extends typeof setRole | typeof removeAdmin | typeof revokeInvitation>(endpoint: E) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<NonNullable<E['body']>>) =>
      callEndpoint(endpoint, { body } as EndpointInput<E>),
    onSuccess: (_res, body) => client.invalidateQueries({ queryKey: teamKey(body.team_id) }),
  });
}

export const useSetRole = () => useTeamChange(setRole);
export const useRemoveAdmin = () => useTeamChange(removeAdmin);
export const useRevokeInvitation = () => useTeamChange(revokeInvitation);
export const invalidateTeam = (client: ReturnType<typeof useQueryClient>, teamId: string) =>
  client.invalidateQueries({ queryKey: teamKey(teamId) });

/** GET /apikeys/:teamId */
export function useApiKeys(teamId: string) {
  return useQuery({
    queryKey: keysKey(teamId),
    queryFn: ({ signal }) => callEndpoint(listApiKeys, { params: { teamId } }, { signal }),
  });
}

/** POST /apikeys/create: the answer carries the secret, shown once. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyRequest) => callEndpoint(createApiKey, { body }),
    onSuccess: (_res, body) => client.invalidateQueries({ queryKey: keysKey(body.team_id) }),
  });
}

/** POST /apikeys/revoke */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RevokeApiKeyRequest) => callEndpoint(revokeApiKey, { body }),
    onSuccess: (_res, body) => client.invalidateQueries({ queryKey: keysKey(body.team_id) }),
  });
}
