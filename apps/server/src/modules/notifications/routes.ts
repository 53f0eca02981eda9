import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  notificationIdParams,
  notificationsListQuery,
  notificationsListResponse,
  notificationsUnreadResponse,
} from '@flywheel/shared/notifications';
import { authenticate, currentUser } from '../../plugins/auth.ts';
import type { AuthService } from '../auth/service.ts';
import type { NotificationsService } from './service.ts';

const tags = ['notifications'];

/**
 * The caller's own notifications. Not workspace-scoped: a person's list spans the workspaces they administer
 * (each row names its workspace), and every statement is bound to the signed-in user, so another person's id
 * is a 404. 401 comes first (onRequest), then 400 from the schema. Marking read changes nothing of a workspace:
 * no audit row, no role needed (a Viewer reads their own too).
 */
export function notificationsRoutes(deps: { notifications: NotificationsService; auth: AuthService }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = authenticate(deps.auth);

    r.get(
      '/notifications',
      {
        onRequest,
        schema: {
          tags,
          summary:
            "The caller's notifications, newest first: `limit` (1-100, 20) after `cursor`; and the unread count",
          querystring: notificationsListQuery,
          response: { 200: notificationsListResponse },
        },
      },
      async (req) => deps.notifications.list(currentUser(req).id, req.query.limit, req.query.cursor),
    );

    r.get(
      '/notifications/unread',
      {
        onRequest,
        schema: {
          tags,
          summary: "How many of the caller's notifications are unread",
          response: { 200: notificationsUnreadResponse },
        },
      },
      async (req) => deps.notifications.unread(currentUser(req).id),
    );

    r.post(
      '/notifications/:id/read',
      {
        onRequest,
        schema: {
          tags,
          summary: "Marks one of the caller's notifications read (404 when it is not theirs)",
          params: notificationIdParams,
          response: { 200: notificationsUnreadResponse },
        },
      },
      async (req) => deps.notifications.markRead(currentUser(req).id, req.params.id),
    );

    r.post(
      '/notifications/readall',
      {
        onRequest,
        schema: {
          tags,
          summary: "Marks all of the caller's notifications read",
          response: { 200: notificationsUnreadResponse },
        },
      },
      async (req) => deps.notifications.markAllRead(currentUser(req).id),
    );
  };
}
