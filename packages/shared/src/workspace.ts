import { z } from 'zod';

/** Spec section 3: Workspace. */
export const workspaceSchema = z.object({
  team_id: z.string(),
  workspace_name: z.string(),
  domain: z.string(),
  timezone: z.string(),
  /** 'disconnected' after the app was uninstalled or its token revoked in Slack. */
  status: z.enum(['active', 'disconnected']),
});
export type Workspace = z.infer<typeof workspaceSchema>;
