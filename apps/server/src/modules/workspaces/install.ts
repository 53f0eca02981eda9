import crypto from 'node:crypto';
import type { Workspace } from '@flywheel/shared/workspace';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { BOT_SCOPES, USER_SCOPES, type SlackApi } from '../../slack/client.ts';
import type { WorkspacesService } from './service.ts';

const STATE_TTL_MS = 10 * 60_000;

/** Why a regular member cannot connect or join a workspace, and what to do instead. */
export const notSlackAdminMessage = (workspace: string) =>
  `Only admins and owners of ${workspace} in Slack can connect it to Flywheel or become its admins here. Ask one of them to connect it, or to invite you from Flywheel.`;

export type InstallService = ReturnType<typeof installService>;

/**
 * Connecting a workspace: the authorize URL (state bound to the signed-in user), then the code exchange
 * (oauth.v2.access), the workspace's details, sealed tokens, the admin link, and the history import.
 */
export function installService(deps: {
  slack: SlackApi;
  workspaces: WorkspacesService;
  redirectUri: string;
  logger: Logger;
  /** `reconnected`: the workspace existed and was disconnected (its history needs filling in again). */
  onInstalled: (teamId: string, how: { isNew: boolean; reconnected: boolean }) => Promise<void>;
}) {
  const { slack, workspaces } = deps;
  return {
    /**
     * The authorize URL. The install ('Create Workspace', no `teamId`) asks only for the bot scopes: the installer
     * becomes the workspace's admin in Flywheel without a user token. 'Add as Admin' (`teamId`) asks for the bot
     * scopes (it reconnects a disconnected workspace) and the user scopes: the admin's user token, to Send as
     * Admin. `redirectUri`: where Slack sends the user back (the origin they are on; deps.redirectUri by default).
     */
    async authorizeUrl(userId: string, teamId?: string, redirectUri = deps.redirectUri): Promise<string> {
      if (teamId) await workspaces.assertAdmin(userId, teamId);
      const state = crypto.randomBytes(24).toString('base64url');
      await workspaces.createState({
        state,
        userId,
        teamId: teamId ?? null,
        expiresAt: new Date(Date.now() + STATE_TTL_MS),
      });
      const url = new URL(slack.authorizeUrl);
      url.searchParams.set('client_id', slack.clientId);
      url.searchParams.set('scope', BOT_SCOPES.join(','));
      if (teamId) url.searchParams.set('user_scope', USER_SCOPES.join(','));
      url.searchParams.set('state', state);
      url.searchParams.set('redirect_uri', redirectUri);
      if (teamId) url.searchParams.set('team', teamId);
      return url.toString();
    },

    /** Completes an install for the user who started it. */
    async complete(input: {
      code: string;
      state: string;
      userId?: string;
      /** The redirect_uri the authorize URL named (Slack checks they match). */
      redirectUri?: string;
    }): Promise<{ teamId: string; message: string; workspaces: Workspace[] }> {
      const started = await workspaces.consumeState(input.state);
      if (!started) {
        throw new AppError(
          'INSTALL_FAILED',
          400,
          'This install link has expired or was already used. Start again from Create Workspace.',
        );
      }
      if (input.userId && input.userId !== started.userId) {
        throw new AppError(
          'FORBIDDEN',
          403,
          'This install was started by another account. Start again from Create Workspace.',
        );
      }
      const client = slack.client();
      let access;
      try {
        access = await client.oauth.v2.access({
          client_id: slack.clientId,
          client_secret: slack.clientSecret,
          code: input.code,
          redirect_uri: input.redirectUri ?? deps.redirectUri,
        });
      } catch (err) {
        const code = (err as { data?: { error?: string } }).data?.error ?? 'unknown_error';
        deps.logger.warn({ slackError: code }, 'oauth.v2.access failed');
        throw new AppError(
          'INSTALL_FAILED',
          400,
          `Slack did not accept the authorization (${code}). Please try again.`,
        );
      }
      const teamId = access.team?.id;
      const botToken = access.access_token;
      const installer = access.authed_user;
      if (!teamId || !botToken || !installer?.id) {
        throw new AppError(
          'INSTALL_FAILED',
          400,
          'Slack answered without a workspace or bot token. Please try again.',
        );
      }
      if (started.teamId && started.teamId !== teamId) {
        throw new AppError(
          'INSTALL_FAILED',
          400,
          'You authorized a different workspace than the one you were adding yourself to.',
        );
      }
      const bot = slack.client(botToken);
      const [team, user] = await Promise.all([
        bot.team.info({}).catch(() => undefined),
        bot.users.info({ user: installer.id }).catch(() => undefined),
      ]);
      // Only a Slack admin or owner may connect a workspace or join it in Flywheel: Flywheel shows every
      // member's e-mail and sends as the workspace. Without an answer from Slack, nobody is trusted.
      const slackUser = user?.user;
      if (!slackUser || !(slackUser.is_admin || slackUser.is_owner || slackUser.is_primary_owner)) {
        const name = team?.team?.name ?? access.team?.name ?? teamId;
        deps.logger.warn(
          { teamId, slackUserId: installer.id },
          'install refused: the installer is not a Slack admin',
        );
        throw new AppError('FORBIDDEN', 403, notSlackAdminMessage(name));
      }
      const existing = await workspaces.find(teamId);
      await workspaces.saveInstall(
        {
          teamId,
          name: team?.team?.name ?? access.team?.name ?? teamId,
          domain: team?.team?.domain ?? '',
          timezone: existing?.timezone ?? user?.user?.tz ?? 'UTC',
          bot: {
            token: botToken,
            refreshToken: access.refresh_token ?? null,
            expiresIn: access.expires_in ?? null,
          },
          botUserId: access.bot_user_id ?? null,
          appId: access.app_id ?? null,
          botScopes: access.scope ?? '',
        },
        {
          userId: started.userId,
          slackUserId: installer.id,
          user: installer.access_token
            ? {
                token: installer.access_token,
                refreshToken: installer.refresh_token ?? null,
                expiresIn: installer.expires_in ?? null,
              }
            : null,
          userScopes: installer.scope ?? null,
        },
      );
      await deps.onInstalled(teamId, { isNew: !existing, reconnected: existing?.status === 'disconnected' });
      const name = team?.team?.name ?? teamId;
      return {
        teamId,
        message:
          existing && !started.teamId
            ? `${name} is connected again.`
            : started.teamId
              ? `You are now an admin of ${name}.`
              : `${name} is connected. Importing its history now.`,
        workspaces: await workspaces.listForUser(started.userId),
      };
    },
  };
}
