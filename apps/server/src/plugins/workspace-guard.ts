import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { slackId } from '@flywheel/shared/input';
import { AppError } from '../lib/errors.ts';
import type { AuthService } from '../modules/auth/service.ts';
import type { WorkspacesService } from '../modules/workspaces/service.ts';
import { authenticate, currentUser } from './auth.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyContextConfig {
    /** Marks a route guarded by `scopedOptions` (the tenancy test walks every such route). */
    workspaceScoped?: boolean;
    /** What a workspace-scoped route does, when its method alone does not say it (see `accessOf`). */
    access?: RouteAccess;
  }
}

/**
 * What a workspace-scoped route does, which decides who may call it:
 * - `read`: reads dashboards, lists and exports (every role);
 * - `act`: acts on the workspace or changes what Flywheel keeps for it: sends, schedules, forms, polls,
 *   workflows, buckets, tags, tasks (Editor and Owner);
 * - `manage`: manages the workspace itself: its admins, the bot's profile (Owner).
 */
export type RouteAccess = 'read' | 'act' | 'manage';

/**
 * A route's access: what it declares, else `read` for GET and `act` for every other method, so that a route
 * that writes is never open to readers by omission (a POST that only reads declares `read`).
 */
export const accessOf = (method: string, config?: { access?: RouteAccess }): RouteAccess =>
  config?.access ?? (method === 'GET' ? 'read' : 'act');

/** The `:teamId` path parameter of every workspace-scoped route. */
export const teamIdParam = slackId('teamId').describe('the workspace (team_id)');
export const teamParams = z.object({ teamId: teamIdParam });

/** Where a workspace-scoped route names its team: a path parameter, or team_id in the body or query. */
export function teamIdOf(request: FastifyRequest): string | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
    string,
    unknown
  >;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const v = params.teamId ?? params.team_id ?? body.team_id ?? query.team_id;
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export type WorkspaceGuard = {
  onRequest: (request: FastifyRequest) => Promise<void>;
  preValidation: (request: FastifyRequest) => Promise<void>;
};

/**
 * The workspace guard, in one order for every scoped route:
 * 1. onRequest: a live bearer token, else 401 (before the body is even read);
 * 2. preValidation: the signed-in user administers the named workspace, else 403 (400 when no team is named),
 *    so another workspace's admin gets 403 whatever they send;
 * 3. then the route schema: 400 with the validation message.
 */
export function workspaceGuard(deps: { auth: AuthService; workspaces: WorkspacesService }): WorkspaceGuard {
  const token = authenticate(deps.auth);
  return {
    onRequest: (request) => token(request),
    async preValidation(request) {
      const teamId = teamIdOf(request);
      if (!teamId) throw new AppError('VALIDATION_ERROR', 400, 'team_id is required');
      await deps.workspaces.assertAdmin(currentUser(request).id, teamId);
    },
  };
}

/**
 * Route options of every workspace-scoped route: `{ ...scopedOptions(guard), schema }`, or
 * `scopedOptions(guard, 'read')` for a POST that only reads (see `accessOf`).
 */
export const scopedOptions = (guard: WorkspaceGuard, access?: RouteAccess) => ({
  onRequest: guard.onRequest,
  preValidation: guard.preValidation,
  config: access ? { workspaceScoped: true, access } : { workspaceScoped: true },
});
