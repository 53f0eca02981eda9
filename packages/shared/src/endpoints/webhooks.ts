import { z } from 'zod';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { messageResponse } from '../http.ts';
import { rowId } from '../input.ts';
import {
  createWebhookBody,
  updateWebhookBody,
  webhookCreatedResponse,
  webhookDeliveriesResponse,
  webhookDeliveryResponse,
  webhookResponse,
  webhooksListResponse,
} from '../webhooks.ts';

/*
 * Outbound webhooks (apps/server/src/modules/webhooks/routes.ts, docs/webhooks.md): subscriptions, their delivery
 * log and replay. Changing subscriptions manages the workspace's integrations; the list and the log read.
 */

const tags = ['webhooks'] as const;
const teamParam = z.object({ teamId: teamIdParam });
const webhookParams = teamParam.extend({ webhookId: rowId('webhook_id') });
const deliveryParams = webhookParams.extend({ deliveryId: rowId('delivery_id') });

export const listWebhooks = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/webhooks/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's webhook subscriptions, newest first (never their secrets)",
  params: teamParam,
  response: { 200: webhooksListResponse },
});

export const createWebhook = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/webhooks/createwebhook',
  scope: 'manage',
  tags,
  summary:
    'Subscribes a URL to event types; answers the signing secret, shown this once. The URL must be https and public unless WEBHOOKS_ALLOW_PRIVATE_TARGETS is set',
  body: createWebhookBody,
  response: { 201: webhookCreatedResponse },
});

export const updateWebhook = /* @__PURE__ */ defineEndpoint({
  method: 'PATCH',
  path: '/webhooks/:teamId/:webhookId',
  scope: 'manage',
  tags,
  summary: 'Pauses or resumes a subscription, or changes its event types',
  params: webhookParams,
  body: updateWebhookBody,
  response: { 200: webhookResponse },
});

export const deleteWebhook = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/webhooks/:teamId/:webhookId',
  scope: 'manage',
  tags,
  summary: 'Deletes a subscription and its delivery log (what it had not delivered is dropped)',
  params: webhookParams,
  response: { 200: messageResponse },
});

export const listWebhookDeliveries = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/webhooks/:teamId/:webhookId/deliveries',
  scope: 'read',
  tags,
  summary: "A subscription's last 100 deliveries, newest first: status, attempts, answer, error, timings",
  params: webhookParams,
  response: { 200: webhookDeliveriesResponse },
});

export const replayWebhookDelivery = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/webhooks/:teamId/:webhookId/deliveries/:deliveryId/replay',
  scope: 'manage',
  tags,
  summary: 'Sends a delivery again: a new delivery of the same event (same id) at the end of the queue',
  params: deliveryParams,
  response: { 201: webhookDeliveryResponse },
});
