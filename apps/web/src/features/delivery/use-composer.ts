import { useState } from 'react';
import { EMPTY_EDITOR_VALUE, type EditorValue } from '../../components/RichEditor.tsx';
import { NO_SENDER, type SenderChoice } from '../../entities/messages/index.ts';

export type Problems = { sender: string | null; message: string | null; other: string | null };
const NONE: Problems = { sender: null, message: null, other: null };

/**
 * What a send popup holds while it is written: sender, message, images and the problems shown (each cleared
 * when its field changes), plus the props MessageComposer takes for them.
 */
export function useComposer(initialSender?: SenderChoice) {
  const [sender, setSender] = useState<SenderChoice>(initialSender ?? NO_SENDER);
  const [value, setValue] = useState<EditorValue>(EMPTY_EDITOR_VALUE);
  const [files, setFiles] = useState<File[]>([]);
  const [problems, setProblems] = useState<Problems>(NONE);
  const clear = (key: keyof Problems) => setProblems((p) => (p[key] ? { ...p, [key]: null } : p));

  const composerProps = {
    sender,
    onSender: (s: SenderChoice) => {
      setSender(s);
      clear('sender');
    },
    senderError: problems.sender,
    onMessage: (v: EditorValue) => {
      setValue(v);
      clear('message');
    },
    messageError: problems.message,
    files,
    onFiles: setFiles,
    error: problems.other,
    /** What goes to Slack as it is now (the preview reads it). */
    text: value.mrkdwn,
  };
  /** Shows `found`; true when there is nothing to show. */
  const report = (found: Problems) => {
    setProblems(found);
    return !found.sender && !found.message && !found.other;
  };
  return { sender, value, files, composerProps, report, clearOther: () => clear('other') };
}
