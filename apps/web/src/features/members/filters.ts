import { ENGAGEMENT_LEVELS, type EngagementLevel } from '@flywheel/shared/levels';
import type { MembersDataRequest } from '@flywheel/shared/members';
import { activityPayload, type ActivityFilterState } from '../../lib/activity-filter.ts';
import type { TimeChoice } from '../../lib/time-filter.ts';
import { joinWindowOf } from '../../lib/members-link.ts';

const LEVEL_PARAM = 'level';
const isEngagementLevel = (v: string): v is EngagementLevel =>
  (ENGAGEMENT_LEVELS as readonly string[]).includes(v);

// The time and activity filters are shared with Home and Analytics (lib/).
export type { TimeChoice } from '../../lib/time-filter.ts';
export { rangeProblem, todayString, timeLabel } from '../../lib/time-filter.ts';
export type { ActivityFilterState, Comparison } from '../../lib/activity-filter.ts';
export { activityIsSet, emptyActivityFilter } from '../../lib/activity-filter.ts';

/** Join Filter popup: Workspace Join (default) or Left, over a fixed number of days or a custom range. */
export type JoinFilterState = {
  type: 'team_join' | 'team_left';
  window: TimeChoice;
};

export type MembersFilterState = {
  time: TimeChoice;
  join: JoinFilterState | null;
  activity: ActivityFilterState | null;
  channels: string[];
  tags: number[];
  /** Engagement levels: members holding any of them. */
  levels: EngagementLevel[];
};

export const DEFAULT_FILTERS: MembersFilterState = {
  time: { type: 'static', days: 7 },
  join: null,
  activity: null,
  channels: [],
  tags: [],
  levels: [],
};

/**
 * The filters a Members URL opens with: the defaults, with the Join Filter set to Workspace Join over the days
 * of `?join_from=YYYY-MM-DD&join_to=YYYY-MM-DD` when both are real days in order (Analytics' cohort rows link
 * so, lib/members-link.ts), and the Level filter set to the levels of `?level=slipping` (the weekly digest links
 * so; an unknown level is ignored).
 */
export function filtersFromSearch(search: URLSearchParams): MembersFilterState {
  const window = joinWindowOf(search);
  const levels = search.getAll(LEVEL_PARAM).filter(isEngagementLevel);
  return {
    ...DEFAULT_FILTERS,
    ...(window ? { join: { type: 'team_join', window: { type: 'dynamic', ...window } } } : {}),
    ...(levels.length ? { levels: [...new Set(levels)] } : {}),
  };
}

/** The table's first order: the most active first. */
export const DEFAULT_SORT: { field: 'activity'; direction: 'desc' } = {
  field: 'activity',
  direction: 'desc',
};

/** The filter payload for POST /members/getmembersdata (and the CSV export). */
export function toPayload(
  teamId: string,
  f: MembersFilterState,
): Omit<MembersDataRequest, 'page' | 'page_size'> {
  return {
    team_id: teamId,
    time_filter: f.time,
    channels: f.channels.length ? f.channels : undefined,
    tags: f.tags.length ? f.tags : undefined,
    levels: f.levels.length ? f.levels : undefined,
    base_filter: f.join ? { type: f.join.type, time_filter: f.join.window } : undefined,
    activity_filter: activityPayload(f.activity),
  };
}
