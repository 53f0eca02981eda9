import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  digestQuery,
  digestSchema,
  digestSettingsBody,
  digestSettingsResponse,
} from '@flywheel/shared/digest';
import { currentUser } from '../../plugins/auth.ts';
import { type WorkspaceGuard, scopedOptions, teamParams } from '../../plugins/workspace-guard.ts';
import type { DigestService } from './service.ts';

const tags = ['digest'];

/**
 * The weekly digest: its preview (any role reads it) and the caller's own subscription. Subscribing changes
 * nothing of the workspace, only what the caller is sent, so a Viewer may subscribe too (access `read`).
 */
export function digestRoutes(deps: { digest: DigestService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/digest/:teamId',
      {
        ...scopedOptions(deps.guard),
        schema: {
          tags,
          summary: 'The digest of a week (`week`: a day in it; default: the last whole week), as it is sent',
          params: teamParams,
          querystring: digestQuery,
          response: { 200: digestSchema },
        },
      },
      async (req) => deps.digest.preview(req.params.teamId, req.query.week),
    );

    r.get(
      '/digest/settings/:teamId',
      {
        ...scopedOptions(deps.guard),
        schema: {
          tags,
          summary:
            "The caller's weekly digest of this workspace: e-mail, Slack DM, the next one, the last sent",
          params: teamParams,
          response: { 200: digestSettingsResponse },
        },
      },
      async (req) => deps.digest.settings(req.params.teamId, currentUser(req).id),
    );

    r.post(
      '/digest/settings',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: "Turns the caller's weekly digest of this workspace on or off, by e-mail and by Slack DM",
          body: digestSettingsBody,
          response: { 200: digestSettingsResponse },
        },
      },
      async (req) => deps.digest.updateSettings(req.body.team_id, currentUser(req).id, req.body),
    );
  };
}
