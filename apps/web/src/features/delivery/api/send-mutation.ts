import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendResponse } from '@flywheel/shared/delivery';
import type { EndpointInput } from '@flywheel/shared/endpoint';
import type {
  directMessage,
  dmToMultipleUsers,
  replyToThread,
  sendMessage,
} from '@flywheel/shared/endpoints/delivery';
import type { replyToMention } from '@flywheel/shared/endpoints/conversations';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { sendBudgetKey } from '../../../entities/messages/index.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { receiptsKey } from './receipts-key.ts';

/** The calls that start a send and answer 202 with its receipt. */
type SendEndpoint =
  | typeof sendMessage
  | typeof dmToMultipleUsers
  | typeof directMessage
  | typeof replyToThread
  | typeof replyToMention;

/** A send's mutation: afterwards the receipts list (and the daily budget) is read again. */
function useSend<B>(send: (body: B) => Promise<SendResponse>) {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: receiptsKey(teamId) }),
        qc.invalidateQueries({ queryKey: sendBudgetKey(teamId) }),
      ]),
  });
}

/**
 * A POST that starts a send: answers at once with its receipt, and the receipts list (and the daily budget) is
 * read again. Each call carries a new Idempotency-Key, the same on its automatic retries.
 */
export const useSendMutation = <E extends SendEndpoint>(endpoint: E) =>
  useSend(
    (body: EndpointInput<E>['body']) =>
      // Each of them answers sendResponse (202).
      callEndpoint(endpoint, { body } as EndpointInput<E>, { idempotent: true }) as Promise<SendResponse>,
  );
