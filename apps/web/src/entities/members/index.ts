/*
 * The member directory without loading it whole: search, names of the ids on screen, and the @names of
 * messages and the editor.
 * Public surface of entities/members: import it from here, never its files (eslint.config.js).
 */
export { nameOfHit, useMemberEntrySources, useMemberNames, useMemberSearch } from './member-directory.ts';
export { mentionCandidates, useMentionLookup, type LiveMentionLookup } from './use-mention-lookup.ts';
export { useMentionNames } from './use-mention-names.ts';
export { LEVEL_COLORS, LevelBadge } from './level-badge.tsx';
