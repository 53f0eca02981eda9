import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getCustomEmoji } from '@flywheel/shared/endpoints/emoji';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam, workspaceKey } from './workspace-data.ts';

type CustomEmoji = { emoji: Readonly<Record<string, string>>; want(): void };
const NONE: CustomEmoji = { emoji: {}, want: () => undefined };
const CustomEmojiContext = createContext<CustomEmoji>(NONE);

/**
 * The current workspace's custom emoji (GET /workspace/emoji/:team), asked for only once some message text on the
 * page holds a code the standard set does not have, then kept for 5 minutes.
 */
export function CustomEmojiProvider({ children }: { children: ReactNode }) {
  const { teamId } = useCurrentTeam();
  const [wanted, setWanted] = useState(false);
  const q = useQuery({
    queryKey: [...workspaceKey(teamId), 'custom-emoji'],
    queryFn: ({ signal }) =>
      callEndpoint(getCustomEmoji, { params: { teamId } }, { signal }).then((r) => r.data),
    enabled: wanted && teamId !== '',
    staleTime: 5 * 60_000,
    retry: false,
  });
  const want = useCallback(() => setWanted(true), []);
  const value = useMemo(() => ({ emoji: q.data ?? {}, want }), [q.data, want]);
  return <CustomEmojiContext.Provider value={value}>{children}</CustomEmojiContext.Provider>;
}

/** The custom emoji by name; `needed` asks the provider to load them (text with an unknown :code:). */
export function useCustomEmoji(needed: boolean): Readonly<Record<string, string>> {
  const ctx = useContext(CustomEmojiContext);
  useEffect(() => {
    if (needed) ctx.want();
  }, [needed, ctx]);
  return ctx.emoji;
}
