import { z } from 'zod';
import { CONTROL_CHARACTERS, controlCharacterMessage } from './input.ts';
import { workspaceSchema } from './workspace.ts';

/** Spec section 3: Member (timestamps in microseconds; 0 = never). */
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
});
export type Member = z.infer<typeof memberSchema>;

export const memberSuggestionSchema = z.object({
  value: z.string(),
  label: z.string(),
  email: z.string(),
  display_name: z.string(),
});
export type MemberSuggestion = z.infer<typeof memberSuggestionSchema>;

/** Spec section 3: Channel. */
export const channelSchema = z.object({
  channel_id: z.string(),
  channel_name: z.string(),
  is_private: z.boolean(),
  is_archived: z.boolean(),
});
export type Channel = z.infer<typeof channelSchema>;

/** Spec section 3: Authorized admin (option label real_name, value user_id). */
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

/**
 * One member as a search hit or a name lookup: enough for pickers, the top-bar search and names on screen,
 * without the whole directory (GET /members/getmembers is ~17 MB at 50,000 members).
 */
export const memberHitSchema = z.object({
  member_id: z.string(),
  real_name: z.string(),
  display_name: z.string(),
  email: z.string(),
  /** Left the workspace or deactivated. */
  deleted: z.boolean(),
});
export type MemberHit = z.infer<typeof memberHitSchema>;

/** The most hits a member search answers (spec section 9: suggestion lists capped at 10). */
export const MEMBER_SEARCH_LIMIT = 10;
/** The most ids (or typed entries) one name lookup takes. */
export const MEMBER_LOOKUP_MAX = 500;

/** GET /members/search/{teamId}?q=&limit=&left=: case-insensitive substring of name, display name or e-mail. */
export const memberSearchQuery = z.object({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, 'q is required')
    .max(100, 'q must be at most 100 characters')
    .refine((v) => !CONTROL_CHARACTERS.test(v), controlCharacterMessage('q')),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MEMBER_SEARCH_LIMIT, `limit must be at most ${MEMBER_SEARCH_LIMIT}`)
    .default(MEMBER_SEARCH_LIMIT),
  /** 'true': members who left are found too (the top bar); pickers leave them out. */
  left: z.enum(['true', 'false']).default('false'),
});
export const memberSearchResponse = z.object({
  data: z.array(memberHitSchema),
  /** More members match than were answered. */
  more: z.boolean(),
});
export type MemberSearchResponse = z.infer<typeof memberSearchResponse>;

/**
 * POST /members/lookup: the members with these ids, and the members a typed entry names exactly
 * (e-mail, real name, display name or id, case-insensitively), for names on screen and pasted lists.
 */
export const memberLookupBody = z
  .object({
    team_id: z.string(),
    member_ids: z
      .array(
        z
          .string()
          .min(1)
          .max(32)
          .refine((v) => !CONTROL_CHARACTERS.test(v), controlCharacterMessage('member_ids')),
        { error: 'member_ids must be a list of ids' },
      )
      .max(MEMBER_LOOKUP_MAX, `at most ${MEMBER_LOOKUP_MAX} member_ids`)
      .default([]),
    entries: z
      .array(
        z
          .string()
          .trim()
          .min(1)
          .max(320)
          .refine((v) => !CONTROL_CHARACTERS.test(v), controlCharacterMessage('entries')),
        { error: 'entries must be a list of texts' },
      )
      .max(MEMBER_LOOKUP_MAX, `at most ${MEMBER_LOOKUP_MAX} entries`)
      .default([]),
  })
  .refine((b) => b.member_ids.length + b.entries.length > 0, 'member_ids or entries is required');
export type MemberLookupBody = z.input<typeof memberLookupBody>;

/** GET /slack/installurl */
export const installUrlResponse = z.object({ url: z.string() });

/** POST /auth-redirect (spec section 7: no token; the OAuth state binds it to the user who started it). */
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

/** GET /public/config */
export const publicConfigResponse = z.object({
  demoMode: z.boolean(),
  demoEmail: z.string().nullable(),
  demoPassword: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;
