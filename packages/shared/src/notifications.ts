import { z } from 'zod';

/*
 * Notifications (issue 35): what happened in the workspaces a person administers, each person with their own read
 * state. GET /api/v0/notifications lists the caller's own, newest first; GET /api/v0/notifications/unread counts
 * the unread ones; POST /api/v0/notifications/:id/read and POST /api/v0/notifications/readall mark them read.
 */

export const NOTIFICATION_KINDS = [
  'send.finished',
  'form.responses',
  'poll.closed',
  'workflow.step_failed',
  'import.finished',
  'workspace.disconnected',
] as const;
export const notificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKind>;

/** How long a notification is kept (a daily job removes older ones). */
export const NOTIFICATION_RETENTION_DAYS = 90;
/** What the bell's menu shows. */
export const NOTIFICATIONS_MENU_SIZE = 20;
export const NOTIFICATIONS_EMPTY_TEXT = 'No notifications yet.';

export const notificationSchema = z.object({
  id: z.number().int(),
  team_id: z.string(),
  workspace_name: z.string(),
  kind: notificationKind,
  /** One short line; user content (a form's, a poll's or a workflow's name) as typed: shown as text, never HTML. */
  text: z.string(),
  /** How it went, for the icon's colour. */
  tone: z.enum(['info', 'success', 'warning', 'error']),
  /** How many happenings the row gathers (new responses to one form instance since it was last read). */
  count: z.number().int(),
  /** The app's page where it can be acted on (a path of the web app). */
  link: z.string(),
  /** When it happened (the latest of a gathered row's happenings). */
  at: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `<microseconds since the epoch>-<id>` of the last row of a page; the next page starts after it. */
const CURSOR = /^\d{1,20}-\d{1,12}$/;

export const notificationsListQuery = z.object({
  cursor: z
    .string({ error: 'cursor must be a text' })
    .regex(CURSOR, 'cursor is not one this list answered')
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(NOTIFICATIONS_MENU_SIZE),
});
export type NotificationsListQuery = z.input<typeof notificationsListQuery>;

export const notificationsListResponse = z.object({
  data: z.array(notificationSchema),
  /** The next page's cursor, or null on the last page. */
  next_cursor: z.string().nullable(),
  unread: z.number().int(),
});
export type NotificationsListResponse = z.infer<typeof notificationsListResponse>;

export const notificationsUnreadResponse = z.object({ unread: z.number().int() });
export type NotificationsUnreadResponse = z.infer<typeof notificationsUnreadResponse>;

export const notificationIdParams = z.object({
  id: z.coerce
    .number({ error: 'id must be a number' })
    .int('id must be a whole number')
    .min(1, 'id must be at least 1')
    .max(2_147_483_647, 'id is too large'),
});

/** "Notifications, 3 unread": the bell's accessible name. */
export const bellLabel = (unread: number) => `Notifications, ${unread} unread`;
