import { z } from 'zod';

/** Spec section 3: Workspace. */
export const workspaceSchema = z.object({
  team_id: z.string(),
  workspace_name: z.string(),
  domain: z.string(),
  timezone: z.string(),
});
export type Workspace = z.infer<typeof workspaceSchema>;
