import type { QueryClient } from '@tanstack/react-query';
import { meQuery } from '../features/auth/api/me.ts';
import { prefetchAnalytics } from '../features/analytics/prefetch.ts';
import { prefetchHome } from '../features/home/prefetch.ts';
import { prefetchMembers } from '../features/members/prefetch.ts';
import { currentWorkspace, getSession } from '../lib/session.ts';
import { authorizedAdminsQuery, channelsQuery, workspaceStatusQuery } from '../entities/workspace/index.ts';
import { tagsQuery } from '../entities/tags/index.ts';

/** The first data of each main page, by the path segment that names the page. */
export const pageData: Record<string, (qc: QueryClient, teamId: string) => Promise<void>[]> = {
  home: prefetchHome,
  analytics: prefetchAnalytics,
  members: prefetchMembers,
};

/**
 * On a cold load the frame's and the page's queries start while their code is still loading, with the query
 * options the components use: when they render, the answers are in the cache (or on their way) and nothing is
 * asked twice. Resolves when every answer is in or has failed (never rejects).
 */
export function warmStart(qc: QueryClient, page: string): Promise<void> {
  const session = getSession();
  if (!session) return Promise.resolve();
  const teamId = currentWorkspace(session)?.team_id;
  if (!teamId) return qc.prefetchQuery(meQuery(session.token));
  const frame = [
    qc.prefetchQuery(meQuery(session.token)),
    qc.prefetchQuery(channelsQuery(teamId)),
    qc.prefetchQuery(authorizedAdminsQuery(teamId, session.userid)),
    qc.prefetchQuery(tagsQuery(teamId)),
    qc.prefetchQuery(workspaceStatusQuery(teamId)),
  ];
  // A page under a main page ('' from app/boot.ts: a member's detail) or another page gets the frame's data only.
  const asked = [...frame, ...(pageData[page]?.(qc, teamId) ?? [])];
  return Promise.all(asked).then(() => undefined);
}
