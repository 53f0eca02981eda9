import type { SendResponse } from '@flywheel/shared/delivery';
import { useUploadFlow } from '../../lib/use-upload-flow.ts';

/**
 * A send with images (the shared upload flow), then `onDone` (the popup closes): resolves with the send's
 * answer, or null when it failed (the failure toast is shown).
 */
export function useSendFlow() {
  const flow = useUploadFlow();
  const run = async (
    files: readonly File[],
    send: (images: string[]) => Promise<SendResponse>,
    onDone: () => void,
  ): Promise<SendResponse | null> => {
    const res = await flow.run(files, send);
    if (res) onDone();
    return res;
  };
  return { ...flow, run };
}
