import { useQuery } from '@tanstack/react-query';
import { getBotDetails } from '@flywheel/shared/endpoints/bot';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam, workspaceKey } from './workspace-data.ts';

/** The bot's name and image as messages show them (GET /alterbot/getbotdetails), for the message preview. */
export function useBotIdentity() {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...workspaceKey(teamId), 'bot-identity'],
    queryFn: ({ signal }) =>
      callEndpoint(getBotDetails, { params: { teamId } }, { signal }).then((a) => a.data),
    enabled: teamId !== '',
    staleTime: 10 * 60_000,
    retry: false,
  });
}
