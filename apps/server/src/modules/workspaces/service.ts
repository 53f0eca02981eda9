import crypto from 'node:crypto';
import { INVITATION_VALID_DAYS } from '@flywheel/shared/invitations';
import type { Workspace } from '@flywheel/shared/workspace';
import {
  API_KEY_PREFIX,
  API_KEY_RATE,
  LAST_OWNER_MESSAGE,
  LEAST_ROLE,
  lowerRole,
  roleAllows,
  roleRefusedMessage,
  type ApiKey,
  type ApiKeyScope,
  type Role,
  type RouteAccess,
  type TeamResponse,
} from '@flywheel/shared/roles';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { TokenSource } from '../../slack/client.ts';
import { tokenBuckets } from '../../lib/token-bucket.ts';
import { workspacesRepo, type InstallRow } from './repo.ts';
import type { TokenProvider } from './tokens.ts';

/** A token as oauth.v2.access hands it out: with token rotation, its refresh token and lifetime (seconds). */
export type IssuedToken = { token: string; refreshToken: string | null; expiresIn: number | null };

/** How long an invitation to administer a workspace stays valid. */
/** How long an invitation stays valid: one number, shared with the web app (packages/shared/src/invitations.ts). */
export const INVITATION_TTL_DAYS = INVITATION_VALID_DAYS;

export type WorkspacesService = ReturnType<typeof workspacesService>;

/** An API key's bearer secret -> what is stored of it (keys are 32 random bytes: a plain SHA-256 is enough). */
export const apiKeyHash = (secret: string) => crypto.createHash('sha256').update(secret).digest('hex');

/** The role an API key acts with: its scope's role, never above its creator's role (and never Owner). */
const SCOPE_ROLE: Record<ApiKeyScope, Role> = { read: 'viewer', act: 'editor' };

/** A live API key as the guard sees it. */
export type ApiKeyCaller = {
  id: string;
  name: string;
  teamId: string;
  scope: ApiKeyScope;
  /** The Owner who created it: the key acts on their behalf. */
  userId: string;
  email: string;
  lastUsedAt: Date | null;
};

const apiKeyOut = (r: {
  id: string;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}): ApiKey => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  created_by: r.createdBy,
  created_at: r.createdAt.toISOString(),
  last_used_at: r.lastUsedAt?.toISOString() ?? null,
});

export const workspacesService = (
  db: Db,
  box: SecretBox,
  tokens: TokenProvider,
  opts: { apiKeyRate?: { burst: number; perSecond: number } } = {},
) => {
  const repo = workspacesRepo(db);
  const apiKeyRate = tokenBuckets(opts.apiKeyRate ?? API_KEY_RATE);
  const expiry = (t: IssuedToken) => (t.expiresIn ? new Date(Date.now() + t.expiresIn * 1000) : null);
  return {
    listForUser: (userId: string): Promise<Workspace[]> => repo.listForUser(userId),
    timezones: (teamIds: string[]) => repo.timezones(teamIds),
    /**
     * A workspace's timezone (UTC when it has none): every local day of its answers is in it. Inside a
     * transaction, pass it as `runner` (a read through the database there is an error: db/tx-guard.ts).
     */
    timezone: async (teamId: string, runner?: Tx): Promise<string> =>
      (await repo.timezones([teamId], runner)).get(teamId) ?? 'UTC',
    allTimezones: () => repo.allTimezones(),
    find: (teamId: string) => repo.find(teamId),
    listActive: () => repo.listActive(),
    /** Throws 403 unless the user administers the workspace. */
    async assertAdmin(userId: string, teamId: string): Promise<void> {
      if (!(await repo.isAdmin(userId, teamId))) throw forbidden();
    },
    /** The user's role in the workspace, or undefined when they do not administer it. */
    roleOf: (userId: string, teamId: string) => repo.roleOf(userId, teamId),
    /**
     * Throws 403 unless the user administers the workspace with a role enough for the route's access (with an API
     * key, the key's scope caps the role). Answers the role the call acts with.
     */
    async assertAccess(
      userId: string,
      teamId: string,
      access: RouteAccess,
      key?: { scope: ApiKeyScope },
    ): Promise<Role> {
      const role = await repo.roleOf(userId, teamId);
      if (!role) throw forbidden();
      const acting = key ? lowerRole(role, SCOPE_ROLE[key.scope]) : role;
      if (roleAllows(acting, access)) return acting;
      if (key && roleAllows(role, access))
        throw forbidden(
          access === 'manage'
            ? 'API keys cannot manage the workspace (admins, roles, API keys): an Owner does that signed in.'
            : `This API key has the ${key.scope} scope; this route needs a key with the act scope.`,
        );
      throw forbidden(roleRefusedMessage(LEAST_ROLE[access], role));
    },
    /**
     * Stores an install: the workspace with its sealed bot token, and the installing admin with theirs (with
     * token rotation, each with its sealed refresh token and expiry). An install (Create Workspace) brings no user
     * token: the installer becomes an admin but not a sender, and the senders already stored (a reconnect) stay;
     * Add as Admin brings one and makes them a sender.
     */
    async saveInstall(
      ws: Omit<InstallRow, 'botTokenSealed' | 'botRefreshTokenSealed' | 'botTokenExpiresAt'> & {
        bot: IssuedToken;
      },
      admin: { userId: string; slackUserId: string; user: IssuedToken | null; userScopes: string | null },
    ) {
      const { bot, ...rest } = ws;
      await repo.upsertInstall({
        ...rest,
        botTokenSealed: box.seal(bot.token),
        botRefreshTokenSealed: bot.refreshToken ? box.seal(bot.refreshToken) : null,
        botTokenExpiresAt: expiry(bot),
      });
      await repo.upsertAdmin({
        teamId: ws.teamId,
        userId: admin.userId,
        slackUserId: admin.slackUserId,
        userTokenSealed: admin.user ? box.seal(admin.user.token) : null,
        userScopes: admin.userScopes,
      });
      // Each Slack admin who authorised stays available as a sender (a second one does not replace the first).
      if (admin.user)
        await repo.upsertSender({
          teamId: ws.teamId,
          slackUserId: admin.slackUserId,
          userTokenSealed: box.seal(admin.user.token),
          userRefreshTokenSealed: admin.user.refreshToken ? box.seal(admin.user.refreshToken) : null,
          userTokenExpiresAt: expiry(admin.user),
          userScopes: admin.userScopes,
          addedBy: admin.userId,
        });
    },
    /**
     * The bot token of a connected workspace, for `slack.client()` / `sendingClient()`: read at each call and
     * renewed under token rotation (tokens.ts). 409 when the workspace is disconnected.
     */
    async botToken(teamId: string): Promise<TokenSource> {
      const source = await tokens.bot(teamId);
      if (!source) {
        throw new AppError(
          'WORKSPACE_DISCONNECTED',
          409,
          'This workspace is disconnected from Slack. Reconnect it with Add as Admin.',
        );
      }
      return source;
    },
    /** The user token of a Slack user admins send as (renewed like the bot token), or null. */
    adminToken: (teamId: string, slackUserId: string): Promise<TokenSource | null> =>
      tokens.user(teamId, slackUserId),
    listAdmins: (teamId: string) => repo.listAdmins(teamId),
    /** Whether a Flywheel admin of the workspace authorized as this Slack user (installed or Add as Admin). */
    isAdminSlackUser: (teamId: string, slackUserId: string) => repo.isAdminSlackUser(teamId, slackUserId),
    /** The Slack user a Flywheel admin is in the workspace (authorized as, else by e-mail), or null. */
    slackUserOf: (teamId: string, userId: string) => repo.slackUserOf(teamId, userId),
    createState: (row: { state: string; userId: string; teamId: string | null; expiresAt: Date }) =>
      repo.createState(row),
    consumeState: (state: string) => repo.consumeState(state),
    markDisconnected: (teamId: string, reason: string) => repo.markDisconnected(teamId, reason),
    forgetUserTokens: (teamId: string, slackUserIds: string[]) => repo.forgetUserTokens(teamId, slackUserIds),
    /** Records an invitation (valid INVITATION_TTL_DAYS); the invitee accepts by logging in with that e-mail. */
    async invite(teamId: string, email: string, invitedBy: string, role: Role = 'editor'): Promise<Date> {
      const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000);
      await repo.upsertInvitation({ teamId, email, invitedBy, role, expiresAt });
      return expiresAt;
    },
    /** Called when a verified account logs in: its pending invitations make it an admin. */
    acceptInvitations: (userId: string, email: string) => repo.acceptInvitations(userId, email),

    /** The workspace's admins with their roles, and its pending invitations. */
    async team(teamId: string): Promise<TeamResponse> {
      const [admins, invitations] = [await repo.team(teamId), await repo.pendingInvitations(teamId)];
      return {
        admins: admins.map((a) => ({
          user_id: a.userId,
          username: a.username,
          email: a.email,
          role: a.role,
          added_at: a.addedAt.toISOString(),
        })),
        invitations: invitations.map((i) => ({
          email: i.email,
          role: i.role,
          invited_by: i.invitedBy,
          created_at: i.createdAt.toISOString(),
          expires_at: i.expiresAt.toISOString(),
        })),
      };
    },
    /** Changes an admin's role (`null`: removes them); 404 when not an admin, 400 when no Owner would be left. */
    async changeAdmin(teamId: string, userId: string, role: Role | null): Promise<void> {
      const out = await repo.changeAdmin(teamId, userId, role);
      if (out === 'not-found') throw notFound('That person is not an admin of this workspace.');
      if (out === 'last-owner') throw new AppError('VALIDATION_ERROR', 400, LAST_OWNER_MESSAGE);
    },
    async revokeInvitation(teamId: string, email: string): Promise<void> {
      if (!(await repo.revokeInvitation(teamId, email)))
        throw notFound('There is no pending invitation for that address.');
    },

    /** Creates an API key: answers it with its secret, which is not kept (only its SHA-256). */
    async createApiKey(
      teamId: string,
      createdBy: string,
      name: string,
      scope: ApiKeyScope,
    ): Promise<{ key: ApiKey; secret: string }> {
      const secret = `${API_KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
      const row = await repo.createApiKey({
        id: crypto.randomUUID(),
        teamId,
        name,
        scope,
        keyHash: apiKeyHash(secret),
        prefix: secret.slice(0, API_KEY_PREFIX.length + 6),
        createdBy,
      });
      const [creator] = (await repo.team(teamId)).filter((a) => a.userId === createdBy);
      return { key: apiKeyOut({ ...row, createdBy: creator?.email ?? null }), secret };
    },
    listApiKeys: async (teamId: string): Promise<ApiKey[]> => (await repo.listApiKeys(teamId)).map(apiKeyOut),
    async revokeApiKey(teamId: string, id: string): Promise<void> {
      if (!(await repo.revokeApiKey(teamId, id)))
        throw notFound('There is no such API key in this workspace.');
    },
    /** A live API key by its secret (undefined when unknown or revoked). */
    async findApiKey(secret: string): Promise<ApiKeyCaller | undefined> {
      const row = await repo.findApiKey(apiKeyHash(secret));
      return row && { ...row, userId: row.createdBy };
    },
    /** Takes one request from the key's rate: 0, or the seconds to wait (API_KEY_RATE per key). */
    takeApiKeyRequest: (id: string): number => apiKeyRate.take(id),
    /** Records a key's use (at most once a minute per key: a busy key does not write on every call). */
    async touchApiKey(key: ApiKeyCaller): Promise<void> {
      const now = new Date();
      if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < 60_000) return;
      await repo.touchApiKey(key.id, now);
    },
  };
};
