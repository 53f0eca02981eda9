import type { FastifyInstance } from 'fastify';
import { getDigest, getDigestSettings, saveDigestSettings } from '@flywheel/shared/endpoints/digest';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import type { DigestService } from './service.ts';

/** The weekly digest: its preview and the caller's own subscription (contracts: endpoints/digest.ts). */
export function digestRoutes(deps: { digest: DigestService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });
    const d = deps.digest;

    route(getDigest, async (req) => d.preview(req.params.teamId, req.query.week));

    route(getDigestSettings, async (req) => d.settings(req.params.teamId, currentUser(req).id));

    route(saveDigestSettings, async (req) =>
      d.updateSettings(req.body.team_id, currentUser(req).id, req.body),
    );
  };
}
