import { useQuery } from '@tanstack/react-query';
import { getAdminChannels } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import type { SenderChoice } from '../../../entities/messages/index.ts';
import { useCurrentTeam, workspaceKey } from '../../../entities/workspace/index.ts';

export const adminChannelsKey = (teamId: string, adminUser?: string) =>
  [...workspaceKey(teamId), 'admin-channels', ...(adminUser ? [adminUser] : [])] as const;

/**
 * GET /delivery/adminchannels/:teamId: which of these channels the chosen admin is not in (Slack refuses a
 * post as them there), asked while the dialog is open with Admin as the sender. Read again when the window
 * regains focus (they may have just joined in Slack).
 */
export function useAdminChannels(sender: SenderChoice, channelIds: readonly string[]) {
  const { teamId } = useCurrentTeam();
  const ids = [...new Set(channelIds)].sort();
  const adminUser = sender.sender === 'admin' ? sender.adminUser : null;
  return useQuery({
    queryKey: [...adminChannelsKey(teamId, adminUser ?? ''), ids.join(',')],
    queryFn: ({ signal }) =>
      callEndpoint(
        getAdminChannels,
        { params: { teamId }, query: { admin_user: adminUser!, channel_ids: ids.join(',') } },
        { signal },
      ).then((r) => r.data),
    enabled: teamId !== '' && !!adminUser && ids.length > 0,
    staleTime: 15_000,
    retry: false,
  });
}
