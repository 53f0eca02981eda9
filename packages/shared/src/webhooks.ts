import { z } from 'zod';

/** The events a webhook subscription can ask for (docs/webhooks.md describes each one's `data`). */
export const WEBHOOK_EVENT_TYPES = [
  'member.joined',
  'member.left',
  'form.response',
  'poll.closed',
  'send.finished',
  'workflow.step_failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'member.joined': 'A member joined the workspace',
  'member.left': 'A member left the workspace',
  'form.response': 'A form response was stored',
  'poll.closed': 'A poll closed',
  'send.finished': 'A send finished (every recipient sent or failed)',
  'workflow.step_failed': 'A workflow step failed',
};

/** The headers of every delivery (lower case, as Node reads them). */
export const WEBHOOK_HEADERS = {
  id: 'x-flywheel-event-id',
  delivery: 'x-flywheel-delivery-id',
  timestamp: 'x-flywheel-timestamp',
  signature: 'x-flywheel-signature',
} as const;

export const createWebhookBody = z.object({
  team_id: z.string().min(1),
  url: z.string().trim().min(1, 'url is required').max(2000, 'url must be at most 2000 characters'),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `events must be among ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
    .min(1, 'events must name at least one event type')
    .max(WEBHOOK_EVENT_TYPES.length),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;

export const updateWebhookBody = z.object({
  enabled: z.boolean().optional(),
  events: createWebhookBody.shape.events.optional(),
});
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const webhookSubscription = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  created_at: z.string(),
  /** Deliveries still to make (waiting or being retried). */
  pending: z.number().int(),
  /** Deliveries given up on in the last 24 hours. */
  failed_recently: z.number().int(),
});
export type WebhookSubscription = z.infer<typeof webhookSubscription>;

export const webhooksListResponse = z.object({ data: z.array(webhookSubscription) });
/** The answer to a create: the only time the secret is shown. */
export const webhookCreatedResponse = z.object({
  message: z.string(),
  data: webhookSubscription.extend({ secret: z.string() }),
});
export const webhookResponse = z.object({ message: z.string(), data: webhookSubscription });

export const webhookDelivery = z.object({
  id: z.number().int(),
  event_id: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  response_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  replay_of: z.number().int().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;
export const webhookDeliveriesResponse = z.object({ data: z.array(webhookDelivery) });
export const webhookDeliveryResponse = z.object({ message: z.string(), data: webhookDelivery });
