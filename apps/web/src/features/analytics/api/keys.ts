import type { ActivityFilter } from '@flywheel/shared/members';
import type { TimeChoice } from '../../../lib/time-filter.ts';
import { workspaceKey } from '../../../entities/workspace/index.ts';

/** Every Analytics query key starts here. */
export const analyticsKey = (teamId: string) => [...workspaceKey(teamId), 'analytics'] as const;

/** A time window over the whole workspace (no channels) or some channels. */
export type ActivityRequest = { time: TimeChoice; channels: string[] };
export type MembersActivityRequest = ActivityRequest & {
  activity: ActivityFilter | undefined;
  tags: number[];
};
