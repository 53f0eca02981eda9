import { z } from 'zod';
import { safeText, slackId } from './input.ts';

/**
 * A person's role in one workspace (issue 36): an Owner manages admins, roles and integrations (API keys); an
 * Editor acts (sends, schedules, forms, polls, workflows, buckets, tags); a Viewer reads dashboards and exports.
 */
export const ROLES = ['owner', 'editor', 'viewer'] as const;
export const roleSchema = z.enum(ROLES, { error: 'role must be owner, editor or viewer' });
export type Role = z.infer<typeof roleSchema>;

/** What a workspace-scoped route does (server: plugins/workspace-guard.ts): read, act or manage. */
export type RouteAccess = 'read' | 'act' | 'manage';

/** The least role each kind of route needs. */
export const LEAST_ROLE: Record<RouteAccess, Role> = { read: 'viewer', act: 'editor', manage: 'owner' };

/** A Flywheel account id (a UUID). */
const userId = safeText('user_id', 64).refine((v) => v.length > 0, 'user_id is required');

const RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 };

/** Whether a role may call a route of that access. */
export const roleAllows = (role: Role, access: RouteAccess): boolean =>
  RANK[role] >= RANK[LEAST_ROLE[access]];

/** The lower of two roles. */
export const lowerRole = (a: Role, b: Role): Role => (RANK[a] <= RANK[b] ? a : b);

export const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

/** The 403 message when a role is not enough. */
export const roleRefusedMessage = (needed: Role, have: Role) =>
  `This needs the ${ROLE_LABEL[needed]} role; you are ${have === 'viewer' ? 'a' : 'an'} ${ROLE_LABEL[have]}.`;

/** The 400 message when a change would leave the workspace without an Owner. */
export const LAST_OWNER_MESSAGE =
  'A workspace needs at least one Owner: make someone else an Owner first, then change or remove this one.';

/** GET /api/v0/workspaces/team/:teamId: the workspace's admins with their roles, and its pending invitations. */
export const teamAdminSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  added_at: z.string(),
});
export type TeamAdmin = z.infer<typeof teamAdminSchema>;

export const teamInvitationSchema = z.object({
  email: z.string(),
  role: roleSchema,
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;

export const teamResponse = z.object({
  admins: z.array(teamAdminSchema),
  invitations: z.array(teamInvitationSchema),
});
export type TeamResponse = z.infer<typeof teamResponse>;

/** POST /api/v0/workspaces/setrole (Owner): changes an admin's role. */
export const setRoleBody = z.object({
  team_id: slackId('team_id'),
  user_id: userId,
  role: roleSchema,
});
export type SetRoleRequest = z.input<typeof setRoleBody>;

/** POST /api/v0/workspaces/removeadmin (Owner): removes an admin from the workspace in Flywheel. */
export const removeAdminBody = z.object({ team_id: slackId('team_id'), user_id: userId });
export type RemoveAdminRequest = z.input<typeof removeAdminBody>;

/** API keys (issue 36): per workspace, a name and a scope; `read` calls read routes, `act` also acting ones. */
export const API_KEY_SCOPES = ['read', 'act'] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: 'scope must be read or act' });
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** Every API key starts with this, so a bearer token says what it is. */
export const API_KEY_PREFIX = 'fwk_';

/** Requests per key: a bucket of this many, refilled at this many per second. */
export const API_KEY_RATE = { burst: 60, perSecond: 1 } as const;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: apiKeyScopeSchema,
  /** The first characters of the key (never the whole key), to recognise it. */
  prefix: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** GET /api/v0/apikeys/:teamId: the workspace's live keys (never their secret). */
export const apiKeysResponse = z.object({ data: z.array(apiKeySchema) });
export type ApiKeysResponse = z.infer<typeof apiKeysResponse>;

/** POST /api/v0/apikeys/create (Owner). */
export const createApiKeyBody = z.object({
  team_id: slackId('team_id'),
  name: safeText('name', 80)
    .transform((v) => v.trim())
    .refine((v) => v.length > 0, 'name is required'),
  scope: apiKeyScopeSchema,
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyBody>;

/** The created key, with its secret: the only time it is shown. */
export const createApiKeyResponse = z.object({ key: apiKeySchema, secret: z.string() });
export type CreateApiKeyResponse = z.infer<typeof createApiKeyResponse>;

/** POST /api/v0/apikeys/revoke (Owner). */
export const revokeApiKeyBody = z.object({
  team_id: slackId('team_id'),
  id: safeText('id', 64).refine((v) => v.length > 0, 'id is required'),
});
export type RevokeApiKeyRequest = z.input<typeof revokeApiKeyBody>;
