import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCardsData as cardsEndpoint } from '@flywheel/shared/endpoints/home';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { homeKey } from './keys.ts';

/** GET /homepage/getcardsdata/{team}: the summary cards (last 24 hours). */
export const getCardsData = (teamId: string, signal?: AbortSignal) =>
  callEndpoint(cardsEndpoint, { params: { teamId } }, { signal }).then((a) => a.data);

export const cardsQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'cards'],
    queryFn: ({ signal }) => getCardsData(teamId, signal),
  });

export function useSummaryCards() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...cardsQuery(teamId), enabled });
}
