import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import {
  webhookCreatedResponse,
  webhookDeliveriesResponse,
  webhookDeliveryResponse,
  webhookResponse,
  webhooksListResponse,
  type WebhookEventType,
} from '@flywheel/shared/webhooks';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam, useTeamScope, workspaceKey } from '../../../entities/workspace/index.ts';

const enc = encodeURIComponent;
const webhooksKey = (teamId: string) => [...workspaceKey(teamId), 'webhooks'] as const;
const deliveriesKey = (teamId: string, id: number) => [...webhooksKey(teamId), 'deliveries', id] as const;

/** GET /webhooks/{team_id}: the workspace's subscriptions, newest first (never their secrets). */
export function useWebhooks() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: webhooksKey(teamId),
    queryFn: ({ signal }) =>
      apiRequest(`/webhooks/${enc(teamId)}`, { schema: webhooksListResponse, signal }).then((r) => r.data),
    enabled,
  });
}

/** GET /webhooks/{team_id}/{id}/deliveries: the subscription's last deliveries, newest first. */
export function useWebhookDeliveries(webhookId: number | null) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: deliveriesKey(teamId, webhookId ?? 0),
    queryFn: ({ signal }) =>
      apiRequest(`/webhooks/${enc(teamId)}/${webhookId}/deliveries`, {
        schema: webhookDeliveriesResponse,
        signal,
      }).then((r) => r.data),
    enabled: enabled && webhookId !== null,
  });
}

/** POST /webhooks/createwebhook: answers the secret, shown this once. */
export function useCreateWebhook() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { url: string; events: WebhookEventType[] }) =>
      apiRequest('/webhooks/createwebhook', {
        body: { team_id: teamId, ...b },
        schema: webhookCreatedResponse,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}

/** PATCH /webhooks/{team_id}/{id}: pause (enabled false) or resume. */
export function useSetWebhookEnabled() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; enabled: boolean }) =>
      apiRequest(`/webhooks/${enc(teamId)}/${v.id}`, {
        method: 'PATCH',
        body: { enabled: v.enabled },
        schema: webhookResponse,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}

/** DELETE /webhooks/{team_id}/{id}. */
export function useDeleteWebhook() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`/webhooks/${enc(teamId)}/${id}`, { method: 'DELETE', schema: messageResponse }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}

/** POST /webhooks/{team_id}/{id}/deliveries/{delivery}/replay: the same event queued again. */
export function useReplayDelivery(webhookId: number | null) {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) =>
      apiRequest(`/webhooks/${enc(teamId)}/${webhookId}/deliveries/${deliveryId}/replay`, {
        method: 'POST',
        body: { team_id: teamId },
        schema: webhookDeliveryResponse,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}
