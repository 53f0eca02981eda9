import { useMemo, useRef } from 'react';
import { errorMessage } from '../lib/api-client.ts';
import { notifyFailure } from '../lib/notify.tsx';
import { useTags, useCreateTag } from '../entities/tags/index.ts';
import { EntryPicker } from './EntryPicker.tsx';

/**
 * The picked ids as the {id, name} pairs the add-tag calls take; a tag made a moment ago and not listed yet keeps
 * its id (the server goes by the id), alongside the listed ones.
 */
export function useChosenTags(): (ids: number[]) => { id: number; name: string }[] {
  const tags = useTags();
  return (ids) => ids.map((id) => (tags.data ?? []).find((t) => t.id === id) ?? { id, name: '' });
}

/**
 * The workspace's tags as a picker, with '+ create tag' for a new name; while it is being created the picker says
 * so, and the form's button waits (useCreatingTag).
 */
export function TagPicker(props: { value: number[]; onChange(next: number[]): void; error?: string | null }) {
  const tags = useTags();
  const create = useCreateTag();
  // A tag made while others were picked joins the picks as they are then, not as they were when it was asked for.
  const latest = useRef(props);
  latest.current = props;
  const options = useMemo(
    () => (tags.data ?? []).map((t) => ({ value: String(t.id), label: t.name })),
    [tags.data],
  );
  return (
    <EntryPicker
      label="Tags"
      placeholder="Type a tag, or create one"
      what="tag"
      options={options}
      value={props.value.map(String)}
      onChange={(v) => props.onChange(v.map(Number))}
      error={props.error}
      description={create.isPending ? `Creating tag '${create.variables}'…` : undefined}
      onCreate={(name) =>
        create.mutate(name, {
          onSuccess: (res) => latest.current.onChange([...latest.current.value, res.data.id]),
          onError: (err) => notifyFailure(errorMessage(err)),
        })
      }
    />
  );
}
