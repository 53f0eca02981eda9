import { queryOptions, useQuery } from '@tanstack/react-query';
import { receiptStatus } from '@flywheel/shared/delivery';
import { getAllReceipts } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { receiptsKey } from './receipts-key.ts';

/** While a send is still running its receipt moves: the list is read again every 3 s until all are done. */
export const RECEIPTS_POLL_MS = 3_000;
/** Then replies may still come in (members answer DMs): every 10 s while the page is shown. */
export const RECEIPTS_IDLE_POLL_MS = 10_000;

/** GET /receipts/getallreceipts/:team_id (the 1,000 newest, newest first). */
export const receiptsQuery = (teamId: string) =>
  queryOptions({
    queryKey: receiptsKey(teamId),
    queryFn: ({ signal }) =>
      callEndpoint(getAllReceipts, { params: { teamId } }, { signal }).then((r) => r.data),
    refetchInterval: (query) =>
      (query.state.data ?? []).some((r) => receiptStatus(r) !== 'Processed')
        ? RECEIPTS_POLL_MS
        : RECEIPTS_IDLE_POLL_MS,
  });

export function useReceipts() {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...receiptsQuery(teamId), enabled: teamId !== '' });
}
