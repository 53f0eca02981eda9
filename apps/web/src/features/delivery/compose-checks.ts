import { DELIVERY_TEXTS } from '@flywheel/shared/delivery';
import { editorError, type EditorValue } from '../../components/RichEditor.tsx';
import { isChosen, type SenderChoice } from '../../lib/sender.ts';

export type ComposeProblems = { sender: string | null; message: string | null };

/** The sender and message checks every send popup makes before anything is uploaded or sent. */
export function composeProblems(
  choice: SenderChoice,
  value: EditorValue,
  texts: { chooseSender: string; empty: string },
): ComposeProblems {
  const empty = value.text.trim() === '' || value.mrkdwn.trim() === '';
  return {
    sender: isChosen(choice) ? null : texts.chooseSender,
    message: empty ? texts.empty : editorError(value),
  };
}

/** The first message of a zod failure (the shared schema's own texts), or null. */
export function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? null : (result.error?.issues[0]?.message ?? DELIVERY_TEXTS.emptyMessage);
}
