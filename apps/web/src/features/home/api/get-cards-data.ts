import { queryOptions, useQuery } from '@tanstack/react-query';
import { summaryCardsResponse } from '@flywheel/shared/analytics';
import { requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, homeKey } from './keys.ts';

/** GET /homepage/getcardsdata/{team}: the summary cards (last 24 hours). */
export const getCardsData = (teamId: string, signal?: AbortSignal) =>
  requestData(`/homepage/getcardsdata/${enc(teamId)}`, summaryCardsResponse, { signal });

export const cardsQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'cards'],
    queryFn: ({ signal }) => getCardsData(teamId, signal),
  });

export function useSummaryCards() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...cardsQuery(teamId), enabled });
}
