import { isCalendarDay } from '@flywheel/shared/input';

/*
 * A link to the Members page with its Join Filter set to a window of local days (the workspace's timezone):
 * /dashboard/members?join_from=YYYY-MM-DD&join_to=YYYY-MM-DD. Analytics' cohort rows link here; the Members
 * page reads the window back (features/members/filters.ts, joinFilterFromSearch).
 */

export const JOIN_FROM_PARAM = 'join_from';
export const JOIN_TO_PARAM = 'join_to';

/** The Members page filtered to the members who joined from `from` to `to` (both included). */
export function membersJoinedLink(from: string, to: string): string {
  const q = new URLSearchParams({ [JOIN_FROM_PARAM]: from, [JOIN_TO_PARAM]: to });
  return `/dashboard/members?${q.toString()}`;
}

/** The join window of a Members URL's search, or null when absent or not two real days in order. */
export function joinWindowOf(search: URLSearchParams): { start_date: string; end_date: string } | null {
  const from = search.get(JOIN_FROM_PARAM);
  const to = search.get(JOIN_TO_PARAM);
  if (!from || !to || !isCalendarDay(from) || !isCalendarDay(to) || from > to) return null;
  return { start_date: from, end_date: to };
}
