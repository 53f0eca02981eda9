import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CohortPeriod } from '@flywheel/shared/cohorts';
import { getCohorts as cohortsEndpoint } from '@flywheel/shared/endpoints/analytics';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey } from './keys.ts';

/** GET /analytics/cohorts/:teamId: retention by join cohort, the last 12 weeks or months, 12 weeks each. */
export const getCohorts = (teamId: string, period: CohortPeriod, signal?: AbortSignal) =>
  callEndpoint(cohortsEndpoint, { params: { teamId }, query: { period } }, { signal }).then((a) => a.data);

export const cohortsQuery = (teamId: string, period: CohortPeriod) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'cohorts', period],
    queryFn: ({ signal }) => getCohorts(teamId, period, signal),
    placeholderData: keepPreviousData,
  });

export function useCohorts(period: CohortPeriod) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...cohortsQuery(teamId, period), enabled });
}
