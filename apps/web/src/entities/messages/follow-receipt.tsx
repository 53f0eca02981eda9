import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { TOAST_MS } from '@flywheel/shared/constants';
import { failureText, type ReceiptDetail, type SendResponse } from '@flywheel/shared/delivery';
import { getReceipt } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../lib/endpoint-client.ts';

/** How long a send's toast follows its receipt before leaving the rest to the Receipts page. */
export const FOLLOW_MS = 60_000;
/** How often the receipt is read while followed: soon at first (most sends are small), then less. */
export const FOLLOW_STEPS_MS = [700, 1000, 1500, 2000, 3000];
/** A failure stays longer than a success: it has something to read. */
const FAILURE_TOAST_MS = 12_000;

export type FollowTexts = {
  /** Title of the toast while it sends (the server's message under it). */
  sending: string;
  /** Every recipient got it. */
  sent(total: number): { title: string; message: string };
  /** Some or all failed; `reason` is the commonest failure in words. */
  failed(r: { sent: number; failed: number; total: number; reason: string }): {
    title: string;
    message: string;
  };
};

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/** A send's toast: the server's "Sending to …" while it goes, then whether Slack took it. */
export const SEND_TEXTS: FollowTexts = {
  sending: 'Sending',
  sent: (total) => ({
    title: 'Sent',
    message: total === 1 ? 'Delivered in Slack.' : `Delivered to all ${plural(total, 'recipient')} in Slack.`,
  }),
  failed: ({ sent, failed, total, reason }) =>
    sent === 0
      ? {
          title: 'Not sent',
          message: `Slack refused it: ${reason}.${total === 1 ? '' : ` None of the ${plural(total, 'recipient')} got it.`} See Receipts for details.`,
        }
      : {
          title: 'Partly sent',
          message: `Delivered to ${sent} of ${plural(total, 'recipient')}; ${failed} failed: ${reason}. See Receipts for who.`,
        },
};

/** "Send a test to me": the DM to yourself. */
export const TEST_TEXTS: FollowTexts = {
  sending: 'Sending the test',
  sent: () => ({ title: 'Test sent', message: 'Look for it in your DMs in Slack.' }),
  failed: ({ reason }) => ({ title: 'Test not sent', message: `Slack refused it: ${reason}.` }),
};

const done = (r: ReceiptDetail) =>
  r.error !== null || r.successful_recipient_count + r.failed_recipient_count >= r.total_recipient_count;

/**
 * Shows a send's toast and keeps it true: blue and busy while the receipt is open ("Sending to 1 recipient"),
 * then green when every recipient got it, or red with Slack's reason when some did not (a post as an admin
 * outside the channel: "the sender is not a member of the channel"). A send still going after FOLLOW_MS is
 * left to the Receipts page. Resolves with the last receipt read (null when it could not be read).
 */
export async function followReceipt(
  teamId: string,
  res: SendResponse,
  texts: FollowTexts = SEND_TEXTS,
): Promise<ReceiptDetail | null> {
  const id = `receipt-${res.data.receipt_id}`;
  notifications.show({
    id,
    title: texts.sending,
    message: res.message,
    color: 'blue',
    loading: true,
    autoClose: false,
    withCloseButton: true,
  });
  const until = Date.now() + FOLLOW_MS;
  let last: ReceiptDetail | null = null;
  for (let step = 0; Date.now() < until; step++) {
    await new Promise((r) => setTimeout(r, FOLLOW_STEPS_MS[Math.min(step, FOLLOW_STEPS_MS.length - 1)]));
    let read: ReceiptDetail;
    try {
      read = await callEndpoint(getReceipt, { params: { teamId, id: res.data.receipt_id } }).then(
        (r) => r.data,
      );
    } catch {
      break; // the receipt cannot be read (signed out, offline): the toast stops following it
    }
    last = read;
    if (done(read)) break;
  }
  if (!last || !done(last)) {
    notifications.update({
      id,
      title: 'Still sending',
      message: last
        ? `${last.successful_recipient_count + last.failed_recipient_count} of ${plural(last.total_recipient_count, 'recipient')} done so far: follow it in Receipts.`
        : res.message,
      color: 'blue',
      loading: false,
      icon: <IconInfoCircle size={18} />,
      autoClose: TOAST_MS,
    });
    return last;
  }
  const failed = last.error !== null ? last.total_recipient_count : last.failed_recipient_count;
  if (failed === 0) {
    notifications.update({
      id,
      ...texts.sent(last.total_recipient_count),
      color: 'teal',
      loading: false,
      icon: <IconCheck size={18} />,
      autoClose: TOAST_MS,
    });
    return last;
  }
  const top = last.failures[0]?.error;
  notifications.update({
    id,
    ...texts.failed({
      sent: last.successful_recipient_count,
      failed,
      total: last.total_recipient_count,
      reason: last.error ?? (top ? failureText(top) : 'no reason given'),
    }),
    color: 'red',
    loading: false,
    icon: <IconAlertTriangle size={18} />,
    autoClose: FAILURE_TOAST_MS,
  });
  return last;
}
