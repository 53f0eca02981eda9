import { useMutation, useQueryClient } from '@tanstack/react-query';
import { retryReceipt as retryReceiptCall } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { receiptsKey } from './receipts-key.ts';

/** POST /receipts/retry: re-queues the receipt's failed recipients whose errors are retryable. */
export const retryReceipt = (teamId: string, id: number) =>
  callEndpoint(retryReceiptCall, { body: { team_id: teamId, id } });

/** Retry a receipt; the receipts list is read again (it polls while the retried receipt runs). */
export function useRetryReceipt() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => retryReceipt(teamId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: receiptsKey(teamId) }),
  });
}
