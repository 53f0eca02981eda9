import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MentionLookup } from '@flywheel/shared/mrkdwn';
import { cutText } from '@flywheel/shared/text';
import { lookupMembers, type MemberHit } from './member-directory.ts';
import { useChannels, useCurrentTeam } from '../workspace/index.ts';

/** A lookup the editor feeds with its text, so the members it names are looked up as they are typed. */
export type LiveMentionLookup = MentionLookup & { request?(text: string): void };

const LOOKUP_DELAY_MS = 300;
/** Words after an @ that can make a name ("@Ada Lovelace 3"). */
const NAME_WORDS = 4;

/** The names an @ in the text may start: "@Ada Lovelace" gives "Ada", "Ada Lovelace", … (up to 4 words). */
export function mentionCandidates(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/@([^\n@]+)/g)) {
    const words = m[1]!.split(/[ \t]+/).filter(Boolean);
    if (/^(here|everyone|channel)\b/i.test(words[0] ?? '')) continue;
    for (let n = 1; n <= Math.min(NAME_WORDS, words.length); n++) {
      const name = words
        .slice(0, n)
        .join(' ')
        .replace(/[.,;:!?)]+$/, '');
      if (name) out.add(cutText(name, 320));
    }
  }
  return [...out];
}

/**
 * The workspace's channels and the members typed so far, so @names and #names typed in the editor become
 * Slack tokens: the names after each @ are looked up on the server (exact name or display name), not in a
 * directory loaded whole.
 */
export function useMentionLookup(): LiveMentionLookup {
  const { teamId } = useCurrentTeam();
  const channels = useChannels();
  const [members, setMembers] = useState<readonly MemberHit[]>([]);
  const asked = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const request = useCallback(
    (text: string) => {
      const fresh = mentionCandidates(text).filter((c) => !asked.current.has(c.toLowerCase()));
      if (!teamId || fresh.length === 0) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const entries = fresh.filter((c) => !asked.current.has(c.toLowerCase()));
        for (const c of entries) asked.current.add(c.toLowerCase());
        if (entries.length === 0) return;
        lookupMembers(teamId, { entries }).then(
          (hits) => {
            if (hits.length === 0) return;
            setMembers((had) => {
              const known = new Set(had.map((m) => m.member_id));
              const added = hits.filter((h) => !known.has(h.member_id));
              return added.length ? [...had, ...added] : had;
            });
          },
          () => {
            // Asked again on the next keystroke.
            for (const c of entries) asked.current.delete(c.toLowerCase());
          },
        );
      }, LOOKUP_DELAY_MS);
    },
    [teamId],
  );

  return useMemo(
    () => ({
      members: members
        .filter((m) => !m.deleted)
        .map((m) => ({ id: m.member_id, display_name: m.display_name, real_name: m.real_name })),
      channels: (channels.data ?? []).map((c) => ({ id: c.channel_id, name: c.channel_name })),
      request,
    }),
    [members, channels.data, request],
  );
}
