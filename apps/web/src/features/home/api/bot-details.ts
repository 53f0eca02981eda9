import { queryOptions, useQuery } from '@tanstack/react-query';
import { getBotDetails as botDetailsEndpoint } from '@flywheel/shared/endpoints/bot';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { homeKey } from './keys.ts';

/** GET /alterbot/getbotdetails/{team}: the bot's name and image choice. */
export const getBotDetails = (teamId: string, signal?: AbortSignal) =>
  callEndpoint(botDetailsEndpoint, { params: { teamId } }, { signal }).then((a) => a.data);

export const botQuery = (teamId: string) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'bot'],
    queryFn: ({ signal }) => getBotDetails(teamId, signal),
  });

export function useBotDetails() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...botQuery(teamId), enabled });
}
