import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  authRedirect,
  installUrl,
  slackManifest,
  workspaceStatus,
} from '@flywheel/shared/endpoints/workspaces';
import { currentUser } from '../../plugins/auth.ts';
import { manifestCreateUrl, slackAppManifest, slackCredentials } from '../../slack/manifest.ts';
import { scopeReasons } from '../../slack/scopes.ts';
import type { BackfillService } from '../workspace-data/history-import.ts';
import { linkOrigin, type LinkOriginPolicy } from '../../lib/link-origin.ts';
import type { InstallService } from './install.ts';
import type { WorkspacesService } from './service.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

export function workspaceRoutes(deps: {
  install: InstallService;
  workspaces: WorkspacesService;
  historyImport: BackfillService;
  authed: (request: FastifyRequest) => Promise<void>;
  guard: WorkspaceGuard;
  /** Where Slack sends the user back: the origin they are on when allowed (lib/link-origin.ts). */
  links?: LinkOriginPolicy;
  /** This installation's public address (PUBLIC_URL): the Slack app manifest's URLs. */
  publicUrl?: string;
  /** Whether the demo runs (no Slack app configured) and which credentials are set (never their values). */
  slackSetup?: { demo: boolean; set: Partial<Record<string, boolean>> };
  /** Events and interactivity over Socket Mode: the manifest has no request URLs. */
  socketMode?: boolean;
  /** The Slack event types the process handles (slack/manifest.ts `handledEventTypes`): the manifest's events. */
  eventTypes: readonly string[];
}) {
  const redirectUri = (req: FastifyRequest) =>
    deps.links ? `${linkOrigin(req, deps.links)}/installworkspace` : undefined;
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard, user: deps.authed, userAt: 'preHandler' });

    /** The Slack authorize URL for 'Create Workspace' (no team_id) or 'Add as Admin' (team_id). */
    route(installUrl, async (req) => ({
      url: await deps.install.authorizeUrl(currentUser(req).id, req.query.team_id, redirectUri(req)),
    }));

    /**
     * The Slack app manifest for this installation (slack/manifest.ts): scopes, events and URLs from the code, and
     * the link that opens Slack's app creation with it filled in.
     */
    route(slackManifest, async () => {
      const publicUrl = deps.publicUrl ?? 'http://localhost:3000';
      const manifest = slackAppManifest(publicUrl, {
        socketMode: deps.socketMode,
        eventTypes: deps.eventTypes,
      });
      return {
        manifest,
        create_url: manifestCreateUrl(manifest),
        scopes: scopeReasons(),
        setup: {
          mode: deps.slackSetup?.demo ? ('demo' as const) : ('slack' as const),
          public_url: publicUrl,
          credentials: slackCredentials(deps.slackSetup?.set ?? {}),
        },
      };
    });

    /** POST /auth-redirect {id, email, code} with no token; the OAuth state proves who started it. */
    route(authRedirect, async (req) => {
      const out = await deps.install.complete({
        code: req.body.code,
        state: req.body.state,
        userId: req.body.id || undefined,
        redirectUri: redirectUri(req),
      });
      return { status: 200, message: out.message, workspaces: out.workspaces };
    });

    route(workspaceStatus, async (req) => {
      const ws = await deps.workspaces.find(req.params.teamId);
      return {
        team_id: req.params.teamId,
        status: ws?.status ?? 'disconnected',
        disconnect_reason: ws?.disconnectReason ?? null,
        backfill: await deps.historyImport.progress(req.params.teamId),
      };
    });
  };
}
