import { useQuery } from '@tanstack/react-query';
import { botDetailsResponse } from '@flywheel/shared/analytics';
import { requestData } from '../../lib/api-data.ts';
import { useCurrentTeam, workspaceKey } from './workspace-data.ts';

/** The bot's name and image as messages show them (GET /alterbot/getbotdetails), for the message preview. */
export function useBotIdentity() {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...workspaceKey(teamId), 'bot-identity'],
    queryFn: ({ signal }) =>
      requestData(`/alterbot/getbotdetails/${encodeURIComponent(teamId)}`, botDetailsResponse, { signal }),
    enabled: teamId !== '',
    staleTime: 10 * 60_000,
    retry: false,
  });
}
