import { DELIVERY_TEXTS } from '@flywheel/shared/delivery';
import { editorError, type EditorValue } from '../../lib/rich-editor-value.ts';
import { isChosen, type SenderChoice } from './sender.ts';

/** No text written yet (images alone are not a message). */
export const isBlankMessage = (v: EditorValue) => v.text.trim() === '' || v.mrkdwn.trim() === '';

export type ComposeProblems = { sender: string | null; message: string | null };

/** The sender and message checks every send popup makes before anything is uploaded or sent. */
export function composeProblems(
  choice: SenderChoice,
  value: EditorValue,
  texts: { chooseSender: string; empty: string },
): ComposeProblems {
  return {
    sender: isChosen(choice) ? null : texts.chooseSender,
    message: isBlankMessage(value) ? texts.empty : editorError(value),
  };
}

/** The first message of a zod failure (the shared schema's own texts), or null. */
export function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? null : (result.error?.issues[0]?.message ?? DELIVERY_TEXTS.emptyMessage);
}
