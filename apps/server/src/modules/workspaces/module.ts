import { authenticate } from '../../plugins/auth.ts';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { mailSendJob } from '../mail/jobs.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { workspaceRoutes } from './routes.ts';
import { handledEventTypes } from '../../slack/manifest.ts';
import { teamRoutes } from './team-routes.ts';
import { workspacesService } from './service.ts';
import { tokenProvider } from './tokens.ts';
import { installService } from './install.ts';
import { onWorkspaceInstalled } from '../workspace-data/module.ts';

export const workspacesModule = defineModule({
  name: 'workspaces',
  provides: ['workspaces'],
  services: (k) => {
    const tokens = tokenProvider({
      db: k.database.db,
      box: k.box,
      slack: k.slack,
      logger: k.logger,
      marginMs: k.config.slack.tokenRefreshMarginSeconds * 1000,
    });
    return { workspaces: workspacesService(k.database.db, k.box, tokens) };
  },
  routes: async (app, ctx) => {
    await app.register(
      workspaceRoutes({
        install: ctx.services.install,
        workspaces: ctx.services.workspaces,
        historyImport: ctx.services.historyImport,
        authed: authenticate(ctx.services.auth),
        guard: workspaceGuard(ctx.services),
        links: ctx.config.links,
        publicUrl: ctx.config.publicUrl,
        slackSetup: {
          demo: ctx.config.demo.enabled,
          set: {
            SLACK_CLIENT_ID: !ctx.config.demo.enabled && ctx.config.slack.clientId !== '',
            SLACK_CLIENT_SECRET: !ctx.config.demo.enabled && ctx.config.slack.clientSecret !== '',
            SLACK_SIGNING_SECRET: !ctx.config.demo.enabled && ctx.config.slack.signingSecret !== '',
            PUBLIC_URL: Boolean(ctx.config.publicUrl),
            SLACK_APP_TOKEN: !ctx.config.demo.enabled && Boolean(ctx.config.slack.appToken),
          },
        },
        socketMode: ctx.config.socketMode,
        eventTypes: handledEventTypes(ctx.modules),
      }),
    );
    await app.register(
      invitationRoutes({
        workspaces: ctx.services.workspaces,
        guard: workspaceGuard(ctx.services),
        links: ctx.config.links,
        sendMail: async (mail) => void (await ctx.queue.send(mailSendJob, mail)),
      }),
    );
    await app.register(
      teamRoutes({ workspaces: ctx.services.workspaces, guard: workspaceGuard(ctx.services) }),
    );
  },
});

/**
 * The Add to Slack install flow (install.ts), its own module for the order of composition: it needs workspace
 * data's history import (what happens after an install), which itself needs the workspaces service. Its routes are
 * the workspaces module's.
 */
export const workspaceInstallModule = defineModule({
  name: 'workspace-install',
  needs: ['workspaces', 'historyImport'],
  provides: ['install'],
  services: (k, { workspaces, historyImport }) => ({
    install: installService({
      slack: k.slack,
      workspaces,
      logger: k.logger,
      redirectUri: `${k.config.publicUrl}/installworkspace`,
      onInstalled: (teamId, how) => onWorkspaceInstalled({ queue: k.queue, historyImport }, teamId, how),
    }),
  }),
});
