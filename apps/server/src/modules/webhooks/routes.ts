import type { FastifyInstance } from 'fastify';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhookDelivery,
  updateWebhook,
} from '@flywheel/shared/endpoints/webhooks';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import type { WebhooksService } from './service.ts';

/**
 * Outbound webhooks (docs/webhooks.md): subscriptions, their delivery log and replay. Changing subscriptions
 * manages the workspace's integrations; the list and the log read.
 */
export function webhooksRoutes(deps: { webhooks: WebhooksService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(listWebhooks, async (req) => ({ data: await deps.webhooks.list(req.params.teamId) }));

    route(createWebhook, async (req, reply) => {
      const b = req.body;
      const data = await deps.webhooks.create(currentUser(req).id, b.team_id, b.url, b.events);
      return reply.code(201).send({ message: 'Webhook created: copy its secret now', data });
    });

    route(updateWebhook, async (req) => {
      const data = await deps.webhooks.update(req.params.teamId, req.params.webhookId, req.body);
      return { message: data.enabled ? 'Webhook active' : 'Webhook paused', data };
    });

    route(deleteWebhook, async (req) => {
      await deps.webhooks.remove(req.params.teamId, req.params.webhookId);
      return { message: 'Webhook deleted' };
    });

    route(listWebhookDeliveries, async (req) => ({
      data: await deps.webhooks.deliveries(req.params.teamId, req.params.webhookId),
    }));

    route(replayWebhookDelivery, async (req, reply) => {
      const p = req.params;
      const data = await deps.webhooks.replay(p.teamId, p.webhookId, p.deliveryId);
      return reply.code(201).send({ message: 'Delivery queued again', data });
    });
  };
}
