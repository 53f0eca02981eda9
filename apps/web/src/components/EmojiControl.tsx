import { RichTextEditor } from '@mantine/tiptap';
import { IconMoodSmile } from '@tabler/icons-react';
import { EmojiPopover, type EmojiPick } from './EmojiPicker.tsx';

/** The editor's emoji button: a searchable grid of common Slack emoji; a pick inserts it at the cursor. */
export function EmojiControl({ onPick }: { onPick: EmojiPick }) {
  return (
    <EmojiPopover
      onPick={onPick}
      target={(toggle) => (
        <RichTextEditor.Control aria-label="Insert emoji" title="Insert emoji" onClick={toggle}>
          <IconMoodSmile size={16} stroke={1.5} />
        </RichTextEditor.Control>
      )}
    />
  );
}
