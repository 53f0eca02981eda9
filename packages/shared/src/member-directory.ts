import { z } from 'zod';
import { CONTROL_CHARACTERS, controlCharacterMessage } from './input.ts';

/*
 * Member search and name lookups (what pickers, the top-bar search and names on screen ask the server for),
 * apart from directory.ts so the login page does not carry them.
 */

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

/** The most hits a member search answers (suggestion lists capped at 10). */
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
