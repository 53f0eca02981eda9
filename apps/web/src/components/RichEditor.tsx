import { lazy, Suspense, useMemo } from 'react';
import { Skeleton } from '@mantine/core';
import { editorError, type EditorValue, type RichEditorProps } from '../lib/rich-editor-value.ts';

export {
  EMPTY_EDITOR_VALUE,
  editorError,
  type EditorValue,
  type RichEditorProps,
} from '../lib/rich-editor-value.ts';

export function useEditorError(value: EditorValue): string | null {
  return useMemo(() => editorError(value), [value]);
}

const Body = lazy(() => import('./RichEditorBody.tsx').then((m) => ({ default: m.RichEditorBody })));

/**
 * The message editor: bold, italic, monospace, lists, link/unlink, undo/redo and emoji, on
 * Tiptap through @mantine/tiptap. Its code (about 100 KB gzip) loads the first time an editor shows.
 */
export function RichEditor(props: RichEditorProps) {
  return (
    <Suspense
      fallback={
        <Skeleton height={props.minHeight ?? 160} radius="sm" role="status" aria-label="Loading editor" />
      }
    >
      <Body {...props} />
    </Suspense>
  );
}
