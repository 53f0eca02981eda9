import { z } from 'zod';
import { ENGAGEMENT_LEVELS } from './levels.ts';
import { workspaceSchema } from './workspace.ts';

/** Member (timestamps in microseconds; 0 = never). */
export const memberSchema = z.object({
  member_id: z.string(),
  real_name: z.string(),
  display_name: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  is_admin: z.boolean(),
  deleted: z.boolean(),
  messages: z.number(),
  replies: z.number(),
  reactions: z.number(),
  activity: z.number(),
  last_active: z.number(),
  join_time: z.number(),
  tags: z.array(z.object({ id: z.number(), name: z.string() })).nullable(),
  /** The engagement level (packages/shared/src/levels.ts); null until first computed. Members list and detail. */
  level: z.enum(ENGAGEMENT_LEVELS).nullable().optional(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberSuggestionSchema = z.object({
  value: z.string(),
  label: z.string(),
  email: z.string(),
  display_name: z.string(),
});
export type MemberSuggestion = z.infer<typeof memberSuggestionSchema>;

/** Channel. */
export const channelSchema = z.object({
  channel_id: z.string(),
  channel_name: z.string(),
  is_private: z.boolean(),
  is_archived: z.boolean(),
});
export type Channel = z.infer<typeof channelSchema>;

/** Authorized admin (option label real_name, value user_id). */
export const authorizedAdminSchema = z.object({
  user_id: z.string(),
  real_name: z.string(),
  label: z.string(),
  value: z.string(),
});
export type AuthorizedAdmin = z.infer<typeof authorizedAdminSchema>;

export const tagSchema = z.object({ id: z.number(), name: z.string() });
export type Tag = z.infer<typeof tagSchema>;

export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** GET /slack/installurl */
export const installUrlResponse = z.object({ url: z.string() });

/** POST /auth-redirect (no token; the OAuth state binds it to the user who started it). */
export const authRedirectBody = z.object({
  code: z.string({ error: 'code is required' }).min(1, 'code is required').max(512),
  state: z.string({ error: 'state is required: start again from Create Workspace' }).min(1).max(256),
  id: z.string().optional(),
  email: z.string().optional(),
});
export const authRedirectResponse = z.object({
  status: z.number(),
  message: z.string(),
  workspaces: z.array(workspaceSchema),
});
export type AuthRedirectResponse = z.infer<typeof authRedirectResponse>;

/** GET /workspaces/status/{teamId}: connection and history import. */
export const workspaceStatusResponse = z.object({
  team_id: z.string(),
  status: z.enum(['active', 'disconnected']),
  disconnect_reason: z.string().nullable(),
  backfill: z
    .object({
      status: z.enum(['running', 'done', 'failed']),
      percent: z.number(),
      messages: z.number(),
      error: z.string().nullable(),
      /** 'limited': Slack paces this app's history at 1 call a minute, 15 messages a page (outside the Marketplace). */
      pacing: z.enum(['standard', 'limited']).optional(),
      /** Rough time the import still needs, while it runs. */
      remaining_seconds: z.number().nullable().optional(),
    })
    .nullable(),
});
export type WorkspaceStatus = z.infer<typeof workspaceStatusResponse>;
