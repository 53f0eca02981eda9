import { useState } from 'react';
import type { SendResponse } from '@flywheel/shared/delivery';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useCurrentTeam } from '../../lib/workspace-data.ts';
import { uploadImages } from '../../lib/upload-image.ts';

/** How long a finished send shows 100% before its popup closes. */
export const CLOSE_AFTER_MS = 400;
/** Spec section 9: uploads fill the bar to 90%; the send call's answer brings it to 100%. */
export const UPLOAD_SHARE = 90;

/**
 * A send with images: upload them first (progress scaled to 90%), then the send call (100%), then the server's
 * message as a toast and `onDone`; a failure shows the red 'Failure' toast with the server's message.
 */
export function useSendFlow() {
  const { teamId } = useCurrentTeam();
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  /** Resolves with the send's answer, or null when it failed (the failure toast is shown). */
  const run = async (
    files: readonly File[],
    send: (images: string[]) => Promise<SendResponse>,
    onDone: () => void,
  ): Promise<SendResponse | null> => {
    setBusy(true);
    setProgress(0);
    try {
      const images = files.length
        ? await uploadImages(teamId, files, (f) => setProgress(Math.floor(f * UPLOAD_SHARE)))
        : [];
      setProgress(UPLOAD_SHARE);
      const res = await send(images);
      setProgress(100);
      notifySuccess(res.message);
      setTimeout(onDone, CLOSE_AFTER_MS);
      return res;
    } catch (err) {
      setProgress(null);
      setBusy(false);
      notifyFailure(errorMessage(err));
      return null;
    }
  };
  return { run, progress, busy, teamId };
}
