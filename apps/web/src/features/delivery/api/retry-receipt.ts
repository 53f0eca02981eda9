import { useMutation, useQueryClient } from '@tanstack/react-query';
import { retryResponse } from '@flywheel/shared/delivery';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { receiptsKey } from './receipts-key.ts';

/** POST /receipts/retry: re-queues the receipt's failed recipients whose errors are retryable. */
export const retryReceipt = (teamId: string, id: number) =>
  apiRequest('/receipts/retry', { body: { team_id: teamId, id }, schema: retryResponse });

/** Retry a receipt; the receipts list is read again (it polls while the retried receipt runs). */
export function useRetryReceipt() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => retryReceipt(teamId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: receiptsKey(teamId) }),
  });
}
