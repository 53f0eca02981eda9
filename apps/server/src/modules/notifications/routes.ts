import type { FastifyInstance } from 'fastify';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  unreadNotifications,
} from '@flywheel/shared/endpoints/notifications';
import { authenticate, currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { AuthService } from '../auth/service.ts';
import type { NotificationsService } from './service.ts';

/**
 * The caller's own notifications. Not workspace-scoped: a person's list spans the workspaces they administer
 * (each row names its workspace), and every statement is bound to the signed-in user, so another person's id
 * is a 404. 401 comes first (onRequest), then 400 from the schema. Marking read changes nothing of a workspace:
 * no audit row, no role needed (a Viewer reads their own too).
 */
export function notificationsRoutes(deps: { notifications: NotificationsService; auth: AuthService }) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { user: authenticate(deps.auth) });
    const n = deps.notifications;

    route(listNotifications, async (req) => n.list(currentUser(req).id, req.query.limit, req.query.cursor));

    route(unreadNotifications, async (req) => n.unread(currentUser(req).id));

    route(markNotificationRead, async (req) => n.markRead(currentUser(req).id, req.params.id));

    route(markAllNotificationsRead, async (req) => n.markAllRead(currentUser(req).id));
  };
}
