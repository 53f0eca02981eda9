import { z } from 'zod';

/** The one error envelope every non-2xx answer of the API carries. */
export const errorEnvelope = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  /** CONFIRM_RECIPIENTS: the count to confirm (members and channels). */
  recipients: z.number().int().optional(),
  members: z.number().int().optional(),
  /** CONFIRM_RECIPIENTS: channels in the count; ADMIN_NOT_IN_CHANNEL: how many channels the admin is not in. */
  channels: z.number().int().optional(),
  /** SEND_BUDGET_EXCEEDED: what the daily budget has left, its size and what the send needed. */
  remaining: z.number().int().optional(),
  budget: z.number().int().optional(),
  needed: z.number().int().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

/** Error codes the API answers with (AppError codes). */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'PAYLOAD_REQUIRED'
  | 'TOKEN_REQUIRED'
  | 'TOKEN_INVALID'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_REVOKED'
  | 'INVALID_CREDENTIALS'
  | 'EMAIL_NOT_VERIFIED'
  | 'USERNAME_TAKEN'
  | 'RESET_TOKEN_INVALID'
  | 'VERIFY_TOKEN_INVALID'
  | 'TOO_MANY_ATTEMPTS'
  | 'WEAK_PASSWORD'
  | 'FORBIDDEN'
  | 'SLACK_SIGNATURE_INVALID'
  | 'SLACK_ERROR'
  | 'INSTALL_FAILED'
  | 'WORKSPACE_DISCONNECTED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  /** The server is at a limit of work it takes at once (503 with Retry-After). */
  | 'BUSY'
  | 'CONFIRM_RECIPIENTS'
  /** A send as an admin into a channel the admin's Slack user is not in (400 before anything is queued). */
  | 'ADMIN_NOT_IN_CHANNEL'
  | 'SEND_BUDGET_EXCEEDED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_PROGRESS'
  | 'INTERNAL';
