import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { slackId } from './input.ts';
import { roleSchema } from './roles.ts';

/**
 * POST /api/v0/workspaces/inviteadmin: an admin of the workspace invites another person, by e-mail, to
 * administer it in Flywheel. The invitee accepts by logging in (or signing up and verifying) with that address.
 */
/** How many days an invitation stays valid (the server's INVITATION_TTL_DAYS is this one). */
export const INVITATION_VALID_DAYS = 14;

export const inviteAdminBody = z.object({
  team_id: slackId('team_id'),
  email: emailSchema,
  /** The role accepting gives (Editor when not said). */
  role: roleSchema.default('editor'),
});
export type InviteAdminRequest = z.input<typeof inviteAdminBody>;

export const inviteAdminResponse = z.object({ message: z.string(), expires_at: z.string() });
export type InviteAdminResponse = z.infer<typeof inviteAdminResponse>;

export const invitationSentMessage = (email: string, workspace: string) =>
  `Invitation sent to ${email}. They become an admin of ${workspace} when they log in (or sign up) with that address.`;

/** POST /api/v0/workspaces/revokeinvitation (Owner): withdraws a pending invitation. */
export const revokeInvitationBody = z.object({ team_id: slackId('team_id'), email: emailSchema });
export type RevokeInvitationRequest = z.input<typeof revokeInvitationBody>;
