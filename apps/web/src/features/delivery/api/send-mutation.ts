import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendResponse } from '@flywheel/shared/delivery';
import { apiRequest } from '../../../lib/api-client.ts';
import { sendBudgetKey } from '../../../entities/messages/index.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { receiptsKey } from './receipts-key.ts';

/**
 * A POST that starts a send: answers at once with its receipt, and the receipts list (and the daily budget) is
 * read again. Each call carries a new Idempotency-Key, the same on its automatic retries.
 */
export function useSendMutation<B>(path: string) {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => apiRequest<SendResponse>(path, { body, idempotent: true }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: receiptsKey(teamId) }),
        qc.invalidateQueries({ queryKey: sendBudgetKey(teamId) }),
      ]),
  });
}
