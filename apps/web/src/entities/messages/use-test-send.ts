import { useState } from 'react';
import { testMessageBody, type TestMessageRequest } from '@flywheel/shared/delivery';
import { sendTest } from '@flywheel/shared/endpoints/delivery';
import type { EditorValue } from '../../lib/rich-editor-value.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { notifyFailure } from '../../lib/notify.tsx';
import type { SenderChoice } from './sender.ts';
import { uploadImages } from '../../lib/upload-image.ts';
import { useCurrentTeam } from '../workspace/index.ts';
import { firstIssue, isBlankMessage } from './compose-checks.ts';
import { followReceipt, TEST_TEXTS } from './follow-receipt.tsx';

/** What is tested: the message as it is written now, its images and who it comes from. */
export type TestDraft = { sender: SenderChoice; message: EditorValue; files: readonly File[] };

/**
 * "Send a test to me" (POST /quickaction/sendtest), shared by the send dialogs and the Compose step of
 * Create Trigger and Schedule Message: the message, with its images, as a DM to your own Slack user from the
 * chosen sender, sent like the real one (with an Idempotency-Key); its toast says when it is in your DMs, or
 * the server's refusal. The dialog stays open.
 */
export function useTestSend() {
  const { teamId } = useCurrentTeam();
  const [busy, setBusy] = useState(false);

  const run = async (files: readonly File[], body: (images: string[]) => TestMessageRequest) => {
    setBusy(true);
    try {
      const images = files.length ? await uploadImages(teamId, files, () => {}) : [];
      const res = await callEndpoint(sendTest, { body: body(images) }, { idempotent: true });
      void followReceipt(teamId, res, TEST_TEXTS);
    } catch (err) {
      notifyFailure(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  /**
   * Checks the draft as the server will (the shared schema) and, when it passes, sends it. Returns the first
   * problem (nothing is sent), or null. A test already going is not sent twice.
   */
  const send = (draft: TestDraft): string | null => {
    if (busy) return null;
    const body = (images: string[]): TestMessageRequest => ({
      team_id: teamId,
      sender: draft.sender.sender ?? 'bot',
      admin_user: draft.sender.sender === 'admin' ? draft.sender.adminUser : null,
      text: draft.message.mrkdwn,
      htmlmessage: draft.message.html,
      images,
    });
    const issue = firstIssue(testMessageBody.safeParse(body([])));
    if (issue) return issue;
    void run(draft.files, body);
    return null;
  };

  /** The button is enabled only with a message written (while a test goes it shows its loader). */
  const canTest = (message: EditorValue) => !isBlankMessage(message);

  return { send, busy, canTest };
}
