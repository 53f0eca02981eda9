import type { FastifyInstance } from 'fastify';
import { invitationSentMessage } from '@flywheel/shared/invitations';
import { inviteAdmin } from '@flywheel/shared/endpoints/workspaces';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { linkOrigin, type LinkOriginPolicy } from '../../lib/link-origin.ts';
import type { Mail } from '../mail/service.ts';
import { workspaceInvitationMail } from '../mail/templates.ts';
import { INVITATION_TTL_DAYS, type WorkspacesService } from './service.ts';

/** Inviting another admin by e-mail (issue 18: joining a workspace otherwise needs a Slack admin's install). */
export function invitationRoutes(deps: {
  workspaces: WorkspacesService;
  guard: WorkspaceGuard;
  /** Where the invitation's link leads (lib/link-origin.ts). */
  links: LinkOriginPolicy;
  sendMail(mail: Mail): Promise<void>;
}) {
  return async (app: FastifyInstance) => {
    endpointRoutes(app, { guard: deps.guard })(inviteAdmin, async (req, reply) => {
      const { team_id, email, role } = req.body;
      const inviter = currentUser(req);
      const ws = await deps.workspaces.find(team_id);
      const name = ws?.name ?? team_id;
      const expiresAt = await deps.workspaces.invite(team_id, email, inviter.id, role);
      await deps.sendMail(
        workspaceInvitationMail(
          email,
          inviter.email,
          name,
          `${linkOrigin(req, deps.links)}/auth/login`,
          INVITATION_TTL_DAYS,
        ),
      );
      return reply
        .code(201)
        .send({ message: invitationSentMessage(email, name), expires_at: expiresAt.toISOString() });
    });
  };
}
