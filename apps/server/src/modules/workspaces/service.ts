import type { Workspace } from '@flywheel/shared/workspace';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { TokenSource } from '../../slack/client.ts';
import { workspacesRepo, type InstallRow } from './repo.ts';
import type { TokenProvider } from './tokens.ts';

/** A token as oauth.v2.access hands it out: with token rotation, its refresh token and lifetime (seconds). */
export type IssuedToken = { token: string; refreshToken: string | null; expiresIn: number | null };

/** How long an invitation to administer a workspace stays valid. */
export const INVITATION_TTL_DAYS = 14;

export type WorkspacesService = ReturnType<typeof workspacesService>;

export const workspacesService = (db: Db, box: SecretBox, tokens: TokenProvider) => {
  const repo = workspacesRepo(db);
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
    async invite(teamId: string, email: string, invitedBy: string): Promise<Date> {
      const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000);
      await repo.upsertInvitation({ teamId, email, invitedBy, expiresAt });
      return expiresAt;
    },
    /** Called when a verified account logs in: its pending invitations make it an admin. */
    acceptInvitations: (userId: string, email: string) => repo.acceptInvitations(userId, email),
  };
};
