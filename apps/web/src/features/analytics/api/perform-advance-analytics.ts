import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdvanceAnalyticsFilter } from '@flywheel/shared/buckets';
import { performAdvanceAnalytics as advanceEndpoint } from '@flywheel/shared/endpoints/buckets';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey } from './keys.ts';

/** The bucket table's filters without team_id (the request adds it). */
export type AdvanceFilterRequest = Omit<AdvanceAnalyticsFilter, 'team_id'>;

/** POST /analytics/performadvanceanalytics: one page of the bucket table and the count of every row. */
export const performAdvanceAnalytics = (
  teamId: string,
  r: AdvanceFilterRequest,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
) =>
  callEndpoint(advanceEndpoint, { body: { ...r, team_id: teamId, page, page_size: pageSize } }, { signal });

export const advanceQuery = (teamId: string, r: AdvanceFilterRequest, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'advance', r, page, pageSize],
    queryFn: ({ signal }) => performAdvanceAnalytics(teamId, r, page, pageSize, signal),
    placeholderData: keepPreviousData,
  });

export function useAdvanceAnalytics(r: AdvanceFilterRequest, page: number, pageSize: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...advanceQuery(teamId, r, page, pageSize), enabled });
}
