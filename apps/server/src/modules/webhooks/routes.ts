import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponse } from '@flywheel/shared/http';
import { rowId } from '@flywheel/shared/input';
import {
  createWebhookBody,
  updateWebhookBody,
  webhookCreatedResponse,
  webhookDeliveriesResponse,
  webhookDeliveryResponse,
  webhookResponse,
  webhooksListResponse,
} from '@flywheel/shared/webhooks';
import { currentUser } from '../../plugins/auth.ts';
import { scopedOptions, teamIdParam, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import type { WebhooksService } from './service.ts';

const tags = ['webhooks'];
const teamParam = z.object({ teamId: teamIdParam });
const webhookParams = teamParam.extend({ webhookId: rowId('webhook_id') });
const deliveryParams = webhookParams.extend({ deliveryId: rowId('delivery_id') });

/**
 * Outbound webhooks (docs/webhooks.md): subscriptions, their delivery log and replay. Changing subscriptions
 * manages the workspace's integrations; the list and the log read.
 */
export function webhooksRoutes(deps: { webhooks: WebhooksService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const reads = scopedOptions(deps.guard);
    const manages = scopedOptions(deps.guard, 'manage');

    r.get(
      '/webhooks/:teamId',
      {
        ...reads,
        schema: {
          tags,
          summary: "The workspace's webhook subscriptions, newest first (never their secrets)",
          params: teamParam,
          response: { 200: webhooksListResponse },
        },
      },
      async (req) => ({ data: await deps.webhooks.list(req.params.teamId) }),
    );

    r.post(
      '/webhooks/createwebhook',
      {
        ...manages,
        schema: {
          tags,
          summary:
            'Subscribes a URL to event types; answers the signing secret, shown this once. The URL must be https and public unless WEBHOOKS_ALLOW_PRIVATE_TARGETS is set',
          body: createWebhookBody,
          response: { 201: webhookCreatedResponse },
        },
      },
      async (req, reply) => {
        const b = req.body;
        const data = await deps.webhooks.create(currentUser(req).id, b.team_id, b.url, b.events);
        return reply.code(201).send({ message: 'Webhook created: copy its secret now', data });
      },
    );

    r.patch(
      '/webhooks/:teamId/:webhookId',
      {
        ...manages,
        schema: {
          tags,
          summary: 'Pauses or resumes a subscription, or changes its event types',
          params: webhookParams,
          body: updateWebhookBody,
          response: { 200: webhookResponse },
        },
      },
      async (req) => {
        const data = await deps.webhooks.update(req.params.teamId, req.params.webhookId, req.body);
        return { message: data.enabled ? 'Webhook active' : 'Webhook paused', data };
      },
    );

    r.delete(
      '/webhooks/:teamId/:webhookId',
      {
        ...manages,
        schema: {
          tags,
          summary: 'Deletes a subscription and its delivery log (what it had not delivered is dropped)',
          params: webhookParams,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.webhooks.remove(req.params.teamId, req.params.webhookId);
        return { message: 'Webhook deleted' };
      },
    );

    r.get(
      '/webhooks/:teamId/:webhookId/deliveries',
      {
        ...reads,
        schema: {
          tags,
          summary:
            "A subscription's last 100 deliveries, newest first: status, attempts, answer, error, timings",
          params: webhookParams,
          response: { 200: webhookDeliveriesResponse },
        },
      },
      async (req) => ({ data: await deps.webhooks.deliveries(req.params.teamId, req.params.webhookId) }),
    );

    r.post(
      '/webhooks/:teamId/:webhookId/deliveries/:deliveryId/replay',
      {
        ...manages,
        schema: {
          tags,
          summary:
            'Sends a delivery again: a new delivery of the same event (same id) at the end of the queue',
          params: deliveryParams,
          response: { 201: webhookDeliveryResponse },
        },
      },
      async (req, reply) => {
        const p = req.params;
        const data = await deps.webhooks.replay(p.teamId, p.webhookId, p.deliveryId);
        return reply.code(201).send({ message: 'Delivery queued again', data });
      },
    );
  };
}
