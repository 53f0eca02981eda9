import type { FastifyRequest } from 'fastify';
import {
  API_KEY_PREFIX,
  API_KEY_RATE,
  type ApiKeyScope,
  type Role,
  type RouteAccess,
} from '@flywheel/shared/roles';
import { AppError, forbidden } from '../lib/errors.ts';
import type { AuthService } from '../modules/auth/service.ts';
import type { WorkspacesService } from '../modules/workspaces/service.ts';
import { authenticate, currentUser } from './auth.ts';

export type { RouteAccess } from '@flywheel/shared/roles';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyContextConfig {
    /** Marks a route guarded by `scopedOptions` (the tenancy test walks every such route). */
    workspaceScoped?: boolean;
    /** What a workspace-scoped route does, when its method alone does not say it (see `accessOf`). */
    access?: RouteAccess;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    /** Set when the call came with an API key (`Authorization: Bearer fwk_...`): which key, for the audit log. */
    apiKey?: { id: string; name: string; teamId: string; scope: ApiKeyScope };
    /** The role the call acts with in its workspace (a key's scope caps its creator's role). */
    workspaceRole?: Role;
  }
}

/**
 * What a workspace-scoped route does, which decides who may call it:
 * - `read`: reads dashboards, lists and exports (every role);
 * - `act`: acts on the workspace or changes what Flywheel keeps for it: sends, schedules, forms, polls,
 *   workflows, buckets, tags, tasks (Editor and Owner);
 * - `manage`: manages the workspace itself: its admins, the bot's profile (Owner).
 */
/**
 * A route's access: what it declares, else `read` for GET and `act` for every other method, so that a route
 * that writes is never open to readers by omission (a POST that only reads declares `read`).
 */
export const accessOf = (method: string, config?: { access?: RouteAccess }): RouteAccess =>
  config?.access ?? (method === 'GET' ? 'read' : 'act');

/** The `:teamId` path parameter of every workspace-scoped route (declared beside the endpoint contracts). */
export { teamIdParam, teamParams } from '@flywheel/shared/endpoint';

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

/** The access of the route a request is for (a HEAD is its GET). */
const accessOfRequest = (request: FastifyRequest): RouteAccess =>
  accessOf(request.method === 'HEAD' ? 'GET' : request.method, request.routeOptions.config);

/**
 * An API key (`Bearer fwk_...`): 401 unless it is live, 429 past its rate; the call then acts as the Owner who
 * created it (`request.user`), with `request.apiKey` saying which key. Never on account routes (/auth/*).
 */
async function authenticateApiKey(workspaces: WorkspacesService, request: FastifyRequest, secret: string) {
  if ((request.routeOptions.url ?? '').startsWith('/api/v0/auth/'))
    throw new AppError('TOKEN_INVALID', 401, 'API keys are not accepted on account routes. Log in instead.');
  const key = await workspaces.findApiKey(secret);
  if (!key)
    throw new AppError('TOKEN_INVALID', 401, 'This API key is not valid: it is unknown or was revoked.');
  const wait = workspaces.takeApiKeyRequest(key.id);
  if (wait > 0)
    throw new AppError(
      'TOO_MANY_ATTEMPTS',
      429,
      `Too many requests with this API key (${API_KEY_RATE.burst} at once, then ${API_KEY_RATE.perSecond} a second). Try again in ${wait} s.`,
      { 'retry-after': String(wait) },
    );
  request.apiKey = { id: key.id, name: key.name, teamId: key.teamId, scope: key.scope };
  request.user = { id: key.userId, email: key.email, jti: `apikey:${key.id}`, exp: 0 };
  await workspaces.touchApiKey(key);
}

/**
 * The workspace guard, in one order for every scoped route:
 * 1. onRequest: a live bearer token or API key, else 401 (before the body is even read);
 * 2. preValidation: the caller administers the named workspace, else 403 (400 when no team is named), so another
 *    workspace's admin gets 403 whatever they send; then their role is enough for the route's access (read:
 *    Viewer, act: Editor, manage: Owner; a key's scope caps it), else 403 naming the role needed;
 * 3. then the route schema: 400 with the validation message.
 */
export function workspaceGuard(deps: { auth: AuthService; workspaces: WorkspacesService }): WorkspaceGuard {
  const token = authenticate(deps.auth);
  return {
    async onRequest(request) {
      const secret = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
      if (secret?.startsWith(API_KEY_PREFIX)) await authenticateApiKey(deps.workspaces, request, secret);
      else await token(request);
    },
    async preValidation(request) {
      const teamId = teamIdOf(request);
      if (!teamId) throw new AppError('VALIDATION_ERROR', 400, 'team_id is required');
      // A key is for its own workspace only.
      if (request.apiKey && request.apiKey.teamId !== teamId) throw forbidden();
      request.workspaceRole = await deps.workspaces.assertAccess(
        currentUser(request).id,
        teamId,
        accessOfRequest(request),
        request.apiKey,
      );
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
