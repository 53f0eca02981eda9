import type { FastifyInstance, InjectOptions } from 'fastify';
import { registeredRoutes } from '../app.ts';

/** Every /api/v0 route an app registered. */
export const apiRoutes = (app: FastifyInstance) =>
  (registeredRoutes.get(app) ?? []).filter((r) => r.url.startsWith('/api/v0/'));

/**
 * A request to any route for one workspace, as the route walks (tenancy, roles) send it: the team in the path,
 * the query and the body; the user's own id for `:userId`; 'x' for every other parameter.
 */
export function routeRequest(route: { method: string; url: string }, teamId: string, userId: string) {
  const url = route.url
    .replace(/:teamId|:team_id/g, teamId)
    .replace(/:userId/g, userId)
    .replace(/:[A-Za-z_]+/g, 'x');
  const hasBody = !['GET', 'DELETE'].includes(route.method);
  return {
    method: route.method as InjectOptions['method'],
    url: `${url}${url.includes('?') ? '&' : '?'}team_id=${teamId}`,
    payload: hasBody ? { team_id: teamId } : undefined,
  };
}
