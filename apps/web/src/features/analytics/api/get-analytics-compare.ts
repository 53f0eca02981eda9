import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getAnalyticsCompare as compareEndpoint } from '@flywheel/shared/endpoints/analytics';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey } from './keys.ts';

/** GET /analytics/getanalyticscompare/{team}/{days}: the stat cards against the window before. */
export const getAnalyticsCompare = (teamId: string, days: number, signal?: AbortSignal) =>
  callEndpoint(compareEndpoint, { params: { teamId, days } }, { signal }).then((a) => a.data);

/** The compare cards' first period (days). */
export const DEFAULT_COMPARE_DAYS = 7;

export const compareQuery = (teamId: string, days: number) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'compare', days],
    queryFn: ({ signal }) => getAnalyticsCompare(teamId, days, signal),
    placeholderData: keepPreviousData,
  });

export function useCompare(days: number) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...compareQuery(teamId, days), enabled });
}
