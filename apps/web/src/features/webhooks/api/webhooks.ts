import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookEventType } from '@flywheel/shared/webhooks';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhookDelivery,
  updateWebhook,
} from '@flywheel/shared/endpoints/webhooks';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam, useTeamScope, workspaceKey } from '../../../entities/workspace/index.ts';

const webhooksKey = (teamId: string) => [...workspaceKey(teamId), 'webhooks'] as const;
const deliveriesKey = (teamId: string, id: number) => [...webhooksKey(teamId), 'deliveries', id] as const;

/** GET /webhooks/{team_id}: the workspace's subscriptions, newest first (never their secrets). */
export function useWebhooks() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: webhooksKey(teamId),
    queryFn: ({ signal }) =>
      callEndpoint(listWebhooks, { params: { teamId } }, { signal }).then((r) => r.data),
    enabled,
  });
}

/** GET /webhooks/{team_id}/{id}/deliveries: the subscription's last deliveries, newest first. */
export function useWebhookDeliveries(webhookId: number | null) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: deliveriesKey(teamId, webhookId ?? 0),
    queryFn: ({ signal }) =>
      callEndpoint(listWebhookDeliveries, { params: { teamId, webhookId: webhookId ?? 0 } }, { signal }).then(
        (r) => r.data,
      ),
    enabled: enabled && webhookId !== null,
  });
}

/** POST /webhooks/createwebhook: answers the secret, shown this once. */
export function useCreateWebhook() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { url: string; events: WebhookEventType[] }) =>
      callEndpoint(createWebhook, { body: { team_id: teamId, ...b } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}

/** PATCH /webhooks/{team_id}/{id}: pause (enabled false) or resume. */
export function useSetWebhookEnabled() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; enabled: boolean }) =>
      callEndpoint(updateWebhook, { params: { teamId, webhookId: v.id }, body: { enabled: v.enabled } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}

/** DELETE /webhooks/{team_id}/{id}. */
export function useDeleteWebhook() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(deleteWebhook, { params: { teamId, webhookId: id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}

/** POST /webhooks/{team_id}/{id}/deliveries/{delivery}/replay: the same event queued again. */
export function useReplayDelivery(webhookId: number | null) {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) =>
      callEndpoint(replayWebhookDelivery, { params: { teamId, webhookId: webhookId ?? 0, deliveryId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}
