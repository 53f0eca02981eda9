import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invitationSentMessage, inviteAdminBody, inviteAdminResponse } from '@flywheel/shared/invitations';
import { currentUser } from '../../plugins/auth.ts';
import { scopedOptions, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
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
    app.withTypeProvider<ZodTypeProvider>().post(
      '/workspaces/inviteadmin',
      {
        // The guard runs before the schema, as on every workspace-scoped route: strangers get 403 whatever they send.
        ...scopedOptions(deps.guard, 'manage'),
        schema: {
          tags: ['workspaces'],
          summary: 'Invites a person by e-mail to administer the workspace in Flywheel',
          description: `An Owner of the workspace invites an e-mail address with a role (owner, editor or viewer; editor when not said); the invitation is valid ${INVITATION_TTL_DAYS} days. The invitee becomes an admin with that role when they log in with a verified account of that address (signing up first if they have none). Inviting the same address again renews the invitation.`,
          body: inviteAdminBody,
          response: { 201: inviteAdminResponse },
        },
      },
      async (req, reply) => {
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
      },
    );
  };
}
