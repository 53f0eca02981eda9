import { deliveryCore, type DeliveryDeps } from './core.ts';
import { deliveryHistory } from './history.ts';
import { deliveryPosted } from './posted.ts';
import { deliverySending } from './sending.ts';

export type { DeliveryDeps } from './core.ts';
export type { SendRequest, SendResult } from './admit.ts';
export { receiptStatus, toReceipt } from './history.ts';

/**
 * Sending, for every feature: checks the sender and the images, resolves the audience, writes the receipt with
 * one row per recipient, and wakes the delivery engine (jobs). Pins and reactions are single calls made here,
 * paced like everything else.
 */
export const deliveryService = (deps: DeliveryDeps) => {
  const core = deliveryCore(deps);
  const { runnerRepo, senderHandle } = core;
  const sending = deliverySending(core);
  return {
    senderHandle,
    teamsWithDueWork: () => runnerRepo.teamsWithDueWork(),
    /** Wakes the workspace's sender (after sends made with `deferWake`). */
    wake: (teamId: string) => deps.wake(teamId),

    ...sending,
    ...deliveryPosted(core, sending),
    ...deliveryHistory(core),
  };
};
export type DeliveryService = ReturnType<typeof deliveryService>;
