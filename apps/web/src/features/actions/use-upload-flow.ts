import { useState } from 'react';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { uploadImages } from '../../lib/upload-image.ts';
import { useCurrentTeam } from '../../lib/workspace-data.ts';

/** Spec section 9: uploads fill the bar to 90%; the create call's answer brings it to 100%. */
export const UPLOAD_SHARE = 90;
/** How long a finished create shows 100% before its dialogs close (still busy meanwhile: no second click). */
export const CLOSE_AFTER_MS = 400;

/**
 * Create with images (spec section 7): the images are uploaded first (progress scaled to 90%), then the create
 * call (100%) and the server's message as a toast; a failure shows the red 'Failure' toast with its message.
 */
export function useUploadFlow() {
  const { teamId } = useCurrentTeam();
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  /**
   * Resolves true when created, CLOSE_AFTER_MS after the bar reached 100% (the caller closes; the flow stays
   * busy), false after a failure (the toast is shown).
   */
  const run = async (
    files: readonly File[],
    create: (images: string[]) => Promise<{ message: string }>,
  ): Promise<boolean> => {
    setBusy(true);
    setProgress(0);
    try {
      const images = files.length
        ? await uploadImages(teamId, files, (f) => setProgress(Math.floor(f * UPLOAD_SHARE)))
        : [];
      setProgress(UPLOAD_SHARE);
      const res = await create(images);
      setProgress(100);
      notifySuccess(res.message);
      await new Promise((resolve) => setTimeout(resolve, CLOSE_AFTER_MS));
      return true;
    } catch (err) {
      setProgress(null);
      setBusy(false);
      notifyFailure(errorMessage(err));
      return false;
    }
  };
  return { run, progress, busy, teamId };
}
