import { z } from 'zod';
import { roleSchema } from './roles.ts';

/** Workspace. */
export const workspaceSchema = z.object({
  team_id: z.string(),
  workspace_name: z.string(),
  domain: z.string(),
  timezone: z.string(),
  /** 'disconnected' after the app was uninstalled or its token revoked in Slack. */
  status: z.enum(['active', 'disconnected']),
  /** The caller's role in this workspace (Owner, Editor or Viewer). */
  role: roleSchema,
});
export type Workspace = z.infer<typeof workspaceSchema>;

/** One credential the server needs from the Slack app's settings, in the order one sets them up. */
export const slackCredentialSchema = z.object({
  /** The environment variable. */
  name: z.string(),
  /** Whether this installation has it (never its value). */
  set: z.boolean(),
  required: z.boolean(),
  /** What it is for. */
  what: z.string(),
  /** Where on the Slack app's settings pages it is found. */
  where: z.string(),
});
export type SlackCredential = z.infer<typeof slackCredentialSchema>;

const scopeReasonSchema = z.object({ scope: z.string(), reason: z.string() });

/** GET /slack/manifest: the app manifest from the code, Slack's create link, the scopes with why, the setup status. */
export const slackManifestResponse = z.object({
  manifest: z.record(z.string(), z.unknown()),
  create_url: z.string(),
  scopes: z.object({ bot: z.array(scopeReasonSchema), user: z.array(scopeReasonSchema) }),
  setup: z.object({
    /** 'demo': no Slack app is configured, the bundled emulator runs a demo workspace. */
    mode: z.enum(['demo', 'slack']),
    public_url: z.string(),
    credentials: z.array(slackCredentialSchema),
  }),
});
export type SlackManifestResponse = z.infer<typeof slackManifestResponse>;

/** GET /workspace/emoji/:teamId: the workspace's custom emoji, name (without colons) -> image URL. */
export const customEmojiResponse = z.object({ data: z.record(z.string(), z.string()) });
