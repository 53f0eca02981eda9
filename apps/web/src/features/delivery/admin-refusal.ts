import { ApiError } from '../../lib/api-client.ts';
import { ShownInDialog } from '../../lib/confirmation-declined.ts';

/**
 * A send's error as the dialog handles it: the server's refusal of a post as an admin outside the channel
 * (ADMIN_NOT_IN_CHANNEL) goes to `show` (the dialog says it, with the offer to send as the bot) and comes back
 * as ShownInDialog (no toast on top); any other error as it is.
 */
export function adminRefusal(err: unknown, show: (message: string) => void): unknown {
  if (err instanceof ApiError && err.code === 'ADMIN_NOT_IN_CHANNEL') {
    show(err.message);
    return new ShownInDialog(err);
  }
  return err;
}
