import { useState } from 'react';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { uploadImages } from '../../lib/upload-image.ts';
import { useCurrentTeam } from '../../lib/workspace-data.ts';

/** Spec section 9: uploads fill the bar to 90%; the create call's answer brings it to 100%. */
export const UPLOAD_SHARE = 90;

/**
 * Create with images (spec section 7): the images are uploaded first (progress scaled to 90%), then the create
 * call (100%) and the server's message as a toast; a failure shows the red 'Failure' toast with its message.
 */
export function useUploadFlow() {
  const { teamId } = useCurrentTeam();
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  /** Resolves true when created (the caller closes), false after a failure (the toast is shown). */
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
      return true;
    } catch (err) {
      setProgress(null);
      notifyFailure(errorMessage(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, progress, busy, teamId };
}
