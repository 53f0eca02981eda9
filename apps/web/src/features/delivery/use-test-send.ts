import { useState } from 'react';
import { sendResponse, type TestMessageRequest } from '@flywheel/shared/delivery';
import { apiRequest, errorMessage } from '../../lib/api-client.ts';
import { notifyFailure } from '../../lib/notify.tsx';
import { uploadImages } from '../../lib/upload-image.ts';
import { useCurrentTeam } from '../../lib/workspace-data.ts';
import { followReceipt, TEST_TEXTS } from './follow-receipt.tsx';

/**
 * "Send a test to me" (POST /quickaction/sendtest): the message, with its images, as a DM to your own Slack
 * user from the chosen sender, sent like the real one; its toast says when it is in your DMs. The dialog stays
 * open.
 */
export function useTestSend() {
  const { teamId } = useCurrentTeam();
  const [busy, setBusy] = useState(false);
  const run = async (files: readonly File[], body: (images: string[]) => TestMessageRequest) => {
    if (busy) return;
    setBusy(true);
    try {
      const images = files.length ? await uploadImages(teamId, files, () => {}) : [];
      const res = await apiRequest('/quickaction/sendtest', {
        body: body(images),
        schema: sendResponse,
        idempotent: true,
      });
      void followReceipt(teamId, res, TEST_TEXTS);
    } catch (err) {
      notifyFailure(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, teamId };
}
