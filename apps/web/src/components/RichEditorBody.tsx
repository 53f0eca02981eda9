import '@mantine/tiptap/styles.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Placeholder } from '@tiptap/extensions';
import { buildMentionIndex, htmlToMrkdwn, type MentionIndex } from '@flywheel/shared/mrkdwn';
import type { LiveMentionLookup } from '../entities/members/index.ts';
import { EmojiControl } from './EmojiControl.tsx';
import { SlackBold, SlackItalic } from './slack-marks.ts';
import { editorError, type EditorValue, type RichEditorProps } from '../lib/rich-editor-value.ts';

const valueOf = (editor: Editor, index: MentionIndex): EditorValue => {
  const html = editor.isEmpty ? '' : editor.getHTML();
  return {
    html,
    mrkdwn: html ? htmlToMrkdwn(html, index) : '',
    text: editor.getText({ blockSeparator: '\n' }),
  };
};

/** Loaded lazily by RichEditor: Tiptap and ProseMirror stay out of the pages that never edit a message. */
export function RichEditorBody({
  onChange,
  initialHtml = '',
  placeholder = 'Type your message…',
  mentions,
  error,
  label = 'Message',
  minHeight = 160,
}: RichEditorProps) {
  const index = useMemo(() => buildMentionIndex(mentions ?? {}), [mentions]);
  const [invalid, setInvalid] = useState<string | null>(null);
  const latest = useRef({ onChange, index, mentions });
  latest.current = { onChange, index, mentions };
  const report = (e: Editor, i: MentionIndex) => {
    const value = valueOf(e, i);
    setInvalid(editorError(value));
    latest.current.onChange(value);
    // A lookup fed with the text (useMentionLookup) asks the server for the @names typed.
    (latest.current.mentions as LiveMentionLookup | undefined)?.request?.(value.text);
  };

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        link: false,
        heading: false,
        horizontalRule: false,
        underline: false,
        bold: false,
        italic: false,
      }),
      SlackBold,
      SlackItalic,
      Link.configure({ openOnClick: false }),
      Placeholder.configure({ placeholder }),
    ],
    content: initialHtml,
    editorProps: {
      attributes: { 'aria-label': label, 'aria-multiline': 'true', role: 'textbox' },
      // The copy shortcut is disabled in the editor.
      handleKeyDown: (_view, event) => {
        if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'c') {
          event.preventDefault();
          return true;
        }
        return false;
      },
    },
    onUpdate: ({ editor: e }) => report(e, latest.current.index),
  });

  // Names that load after typing started still become tokens.
  useEffect(() => {
    if (editor && !editor.isEmpty) report(editor, index);
  }, [editor, index]);

  const message = invalid ?? error ?? null;

  return (
    <div>
      <RichTextEditor editor={editor} aria-invalid={message ? true : undefined}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Code />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.OrderedList />
            <RichTextEditor.BulletList />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <EmojiControl onPick={(char) => editor?.chain().focus().insertContent(char).run()} />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={minHeight} />
      </RichTextEditor>
      {message ? <Input.Error mt={6}>{message}</Input.Error> : null}
    </div>
  );
}
