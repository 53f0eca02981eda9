export { nameOfHit, useMemberEntrySources, useMemberNames, useMemberSearch } from './member-directory.ts';
export { mentionCandidates, useMentionLookup, type LiveMentionLookup } from './use-mention-lookup.ts';
export { useMentionNames } from './use-mention-names.ts';
