import { useState } from 'react';
import { errorMessage } from '../../lib/api-client.ts';
import { ConfirmationDeclined, ShownInDialog } from '../../lib/confirmation-declined.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { uploadImages } from '../../lib/upload-image.ts';
import { useCurrentTeam } from '../workspace/index.ts';

/** Uploads fill the bar to 90%; the call's answer brings it to 100%. */
export const UPLOAD_SHARE = 90;
/** How long a finished call shows 100% before its dialogs close (still busy meanwhile: no second click). */
export const CLOSE_AFTER_MS = 400;

/**
 * A send or create with images: the images are uploaded first (progress scaled to 90%),
 * then the call (100%) and the server's message as a toast; a failure shows the red 'Failure' toast with its
 * message. Used by every popup that sends (Send Message, Reply) and by the trigger and schedule wizards.
 */
export function useUploadFlow() {
  const { teamId } = useCurrentTeam();
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  /**
   * Resolves with the call's answer CLOSE_AFTER_MS after the bar reached 100% (the caller closes; the flow
   * stays busy), or null after a failure (the toast is shown). `onAnswer` shows the answer (default: the
   * server's message as a success toast).
   */
  const run = async <T extends { message: string }>(
    files: readonly File[],
    call: (images: string[]) => Promise<T>,
    onAnswer: (res: T) => void = (res) => notifySuccess(res.message),
  ): Promise<T | null> => {
    setBusy(true);
    setProgress(0);
    try {
      const images = files.length
        ? await uploadImages(teamId, files, (f) => setProgress(Math.floor(f * UPLOAD_SHARE)))
        : [];
      setProgress(UPLOAD_SHARE);
      const res = await call(images);
      setProgress(100);
      onAnswer(res);
      await new Promise((resolve) => setTimeout(resolve, CLOSE_AFTER_MS));
      return res;
    } catch (err) {
      setProgress(null);
      setBusy(false);
      // Back from "Send to N members?": nothing was sent and nothing failed. A refusal the dialog shows itself
      // needs no toast.
      if (!(err instanceof ConfirmationDeclined) && !(err instanceof ShownInDialog))
        notifyFailure(errorMessage(err));
      return null;
    }
  };
  return { run, progress, busy, teamId };
}
