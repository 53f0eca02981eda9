import { defineEndpoint } from '../endpoint.ts';
import {
  notificationIdParams,
  notificationsListQuery,
  notificationsListResponse,
  notificationsUnreadResponse,
} from '../notifications.ts';

/*
 * The caller's own notifications (apps/server/src/modules/notifications/routes.ts): `user` calls, not
 * workspace-scoped (each row names its workspace; another person's id is a 404).
 */

const tags = ['notifications'] as const;

export const listNotifications = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/notifications',
  scope: 'user',
  tags,
  summary:
    "The caller's notifications, newest first: `limit` (1-100, 20) after `cursor`; and the unread count",
  query: notificationsListQuery,
  response: { 200: notificationsListResponse },
});

export const unreadNotifications = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/notifications/unread',
  scope: 'user',
  tags,
  summary: "How many of the caller's notifications are unread",
  response: { 200: notificationsUnreadResponse },
});

export const markNotificationRead = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/notifications/:id/read',
  scope: 'user',
  tags,
  summary: "Marks one of the caller's notifications read (404 when it is not theirs)",
  params: notificationIdParams,
  response: { 200: notificationsUnreadResponse },
});

export const markAllNotificationsRead = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/notifications/readall',
  scope: 'user',
  tags,
  summary: "Marks all of the caller's notifications read",
  response: { 200: notificationsUnreadResponse },
});
