import { queryOptions, useQuery } from '@tanstack/react-query';
import { getReplies } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { receiptsKey } from './receipts-key.ts';

/** Members write back at any time: an open list is read again every 5 s (not while the tab is hidden). */
export const REPLIES_POLL_MS = 5_000;

type Of = { receiptId: number } | { memberId: string };

/** GET /receipts/getreplies/:team_id?receipt_id= | ?member_id=: what members wrote back in their DM with the bot. */
export const repliesQuery = (teamId: string, of: Of) =>
  queryOptions({
    queryKey: [
      ...receiptsKey(teamId),
      'replies',
      'receiptId' in of ? `receipt:${of.receiptId}` : `member:${of.memberId}`,
    ],
    queryFn: ({ signal }) =>
      callEndpoint(
        getReplies,
        {
          params: { teamId },
          query: 'receiptId' in of ? { receipt_id: of.receiptId } : { member_id: of.memberId },
        },
        { signal },
      ).then((r) => r.data),
    refetchInterval: REPLIES_POLL_MS,
  });

export function useReplies(of: Of, enabled = true) {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...repliesQuery(teamId, of), enabled: enabled && teamId !== '' });
}
