import type { QueryClient } from '@tanstack/react-query';
import { meQuery } from '../../features/auth/api/me.ts';
import { prefetchAnalytics } from '../../features/analytics/prefetch.ts';
import { prefetchHome } from '../../features/home/prefetch.ts';
import { prefetchMembers } from '../../features/members/prefetch.ts';
import { currentWorkspace, getSession } from '../../lib/session.ts';
import { authorizedAdminsQuery, channelsQuery, tagsQuery } from '../../lib/workspace-data.ts';

/** The first data of each main page, by the path segment that names the page. */
const pages: Record<string, (qc: QueryClient, teamId: string) => void> = {
  home: prefetchHome,
  analytics: prefetchAnalytics,
  members: prefetchMembers,
};

/**
 * On a cold load the frame's and the page's queries start while their code is still loading, with the query
 * options the components use: when they render, the answers are in the cache (or on their way) and nothing is
 * asked twice. (The workspace status is left to the frame: it is polled and never fresh, so it would be asked
 * for again on mount.)
 */
export function warmStart(qc: QueryClient, page: string): void {
  const session = getSession();
  if (!session) return;
  void qc.prefetchQuery(meQuery(session.token));
  const teamId = currentWorkspace(session)?.team_id;
  if (!teamId) return;
  void qc.prefetchQuery(channelsQuery(teamId));
  void qc.prefetchQuery(authorizedAdminsQuery(teamId, session.userid));
  void qc.prefetchQuery(tagsQuery(teamId));
  pages[page]?.(qc, teamId);
}
