import type { EngagementLevel } from '@flywheel/shared/levels';
import type { MembersDataRequest } from '@flywheel/shared/members';
import { activityPayload, type ActivityFilterState } from '../../lib/activity-filter.ts';
import type { TimeChoice } from '../../lib/time-filter.ts';

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
