import { DELIVERY_TEXTS, hasInvalidCharacters } from '@flywheel/shared/delivery';
import type { MentionLookup } from '@flywheel/shared/mrkdwn';

/*
 * The rich editor's value and its check, apart from the editor's components: the lazily loaded body and the
 * outer editor both use them, and neither imports the other for them.
 */

/** What the editor holds: its HTML, the same as Slack mrkdwn, and its plain text. */
export type EditorValue = { html: string; mrkdwn: string; text: string };
export const EMPTY_EDITOR_VALUE: EditorValue = { html: '', mrkdwn: '', text: '' };

export type RichEditorProps = {
  onChange(value: EditorValue): void;
  /** HTML to start with; the editor keeps its own state after that. */
  initialHtml?: string;
  placeholder?: string;
  /** Members (display and real names) and channels whose @names and #names become Slack tokens. */
  mentions?: MentionLookup;
  /** A message shown under the editor (e.g. 'The message cannot be empty!'); invalid characters show anyway. */
  error?: string | null;
  /** Accessible name of the text area. */
  label?: string;
  minHeight?: number;
};

/** The editor's own check ('INVALID CHARACTER(S) FOUND. PLEASE TRY AGAIN!'), or null. */
export function editorError(value: EditorValue): string | null {
  return hasInvalidCharacters(value.text) || hasInvalidCharacters(value.mrkdwn)
    ? DELIVERY_TEXTS.invalidCharacters
    : null;
}
