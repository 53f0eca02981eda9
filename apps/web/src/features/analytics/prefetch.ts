import type { QueryClient } from '@tanstack/react-query';
import { BUCKET_TABLE_PAGE_SIZES } from '@flywheel/shared/buckets';
import { DEFAULT_TREND_SLOT_HOURS } from '@flywheel/shared/constants';
import { DEFAULT_TIME } from '../../lib/time-filter.ts';
import { activityQuery } from './api/activity-analytics.ts';
import { channelsActivityQuery } from './api/channels-activity-analytics.ts';
import { trendQuery } from './api/get-activity-trend.ts';
import { compareQuery, DEFAULT_COMPARE_DAYS } from './api/get-analytics-compare.ts';
import { membersActivityQuery } from './api/members-activity-analytics.ts';
import { membersChangeQuery } from './api/members-change-analytics.ts';
import { advanceQuery } from './api/perform-advance-analytics.ts';
import { DEFAULT_RESPONSE_TIME, responseTimesQuery } from './api/response-times.ts';
import { wordCloudQuery } from './api/word-cloud.ts';
import { RESET_ADVANCE, toAdvanceRequest } from './buckets.ts';

/**
 * Analytics' first data, as its cards first ask for it (the whole workspace, DEFAULT_TIME, no filter, the first
 * page): see app/warm-start.ts.
 */
export function prefetchAnalytics(qc: QueryClient, teamId: string): Promise<void>[] {
  const workspace = { time: DEFAULT_TIME, channels: [] };
  const buckets = toAdvanceRequest(RESET_ADVANCE, Date.now());
  return [
    qc.prefetchQuery(compareQuery(teamId, DEFAULT_COMPARE_DAYS)),
    qc.prefetchQuery(activityQuery(teamId, workspace)),
    qc.prefetchQuery(membersChangeQuery(teamId, workspace)),
    qc.prefetchQuery(channelsActivityQuery(teamId, DEFAULT_TIME, undefined)),
    qc.prefetchQuery(membersActivityQuery(teamId, { ...workspace, activity: undefined, tags: [] }, 1)),
    qc.prefetchQuery(trendQuery(teamId, DEFAULT_TIME, DEFAULT_TREND_SLOT_HOURS)),
    qc.prefetchQuery(wordCloudQuery(teamId, DEFAULT_TIME)),
    qc.prefetchQuery(advanceQuery(teamId, buckets, 1, BUCKET_TABLE_PAGE_SIZES[0])),
    qc.prefetchQuery(responseTimesQuery(teamId, DEFAULT_RESPONSE_TIME)),
  ];
}
