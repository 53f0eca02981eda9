import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Endpoint } from '@flywheel/shared/endpoint';
import type { SendResponse } from '@flywheel/shared/delivery';
import { apiRequest } from '../../../lib/api-client.ts';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { sendBudgetKey } from '../../../entities/messages/index.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { receiptsKey } from './receipts-key.ts';

/**
 * A POST that starts a send: answers at once with its receipt, and the receipts list (and the daily budget) is
 * read again. Each call carries a new Idempotency-Key, the same on its automatic retries. `to` is the send's
 * contract, or its path while its module is not converted to contracts yet (docs/ARCHITECTURE.md §7).
 */
export function useSendMutation<B>(to: string | (Endpoint & { body: z.ZodType<unknown, B> })) {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: B) =>
      typeof to === 'string'
        ? apiRequest<SendResponse>(to, { body, idempotent: true })
        : // The contract's answer is a 202 (sendResponse), which EndpointAnswer does not name.
          (callEndpoint(to, { body } as never, { idempotent: true }) as Promise<SendResponse>),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: receiptsKey(teamId) }),
        qc.invalidateQueries({ queryKey: sendBudgetKey(teamId) }),
      ]),
  });
}
