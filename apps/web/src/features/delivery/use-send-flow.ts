import type { SendResponse } from '@flywheel/shared/delivery';
import { useUploadFlow, followReceipt } from '../../entities/messages/index.ts';

/**
 * A send with images (the shared upload flow), then `onDone` (the popup closes): resolves with the send's
 * answer, or null when it failed (the failure toast is shown). Its toast follows the receipt: "Sending to …"
 * until Slack took it, then whether every recipient got it (followReceipt).
 */
export function useSendFlow() {
  const flow = useUploadFlow();
  const run = async (
    files: readonly File[],
    send: (images: string[]) => Promise<SendResponse>,
    onDone: () => void,
  ): Promise<SendResponse | null> => {
    const res = await flow.run(files, send, (answer) => void followReceipt(flow.teamId, answer));
    if (res) onDone();
    return res;
  };
  return { ...flow, run };
}
