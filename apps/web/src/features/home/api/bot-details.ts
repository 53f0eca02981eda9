import { queryOptions, useQuery } from '@tanstack/react-query';
import { botDetailsResponse } from '@flywheel/shared/analytics';
import { requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { enc, homeKey } from './keys.ts';

/** GET /alterbot/getbotdetails/{team}: the bot's name and image choice. */
export const getBotDetails = (teamId: string, signal?: AbortSignal) =>
  requestData(`/alterbot/getbotdetails/${enc(teamId)}`, botDetailsResponse, { signal });

export const botQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'bot'],
    queryFn: ({ signal }) => getBotDetails(teamId, signal),
  });

export function useBotDetails() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...botQuery(teamId), enabled });
}
