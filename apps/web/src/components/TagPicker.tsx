import { useMemo } from 'react';
import { errorMessage } from '../lib/api-client.ts';
import { notifyFailure } from '../lib/notify.tsx';
import { useTags } from '../lib/workspace-data.ts';
import { useCreateTag } from '../lib/create-tag.ts';
import { EntryPicker } from './EntryPicker.tsx';

/** The picked ids as the {id, name} pairs the add-tag calls take (a tag made a moment ago may not be listed yet). */
export function useChosenTags(): (ids: number[]) => { id: number; name: string }[] {
  const tags = useTags();
  return (ids) => {
    const chosen = (tags.data ?? []).filter((t) => ids.includes(t.id));
    return chosen.length ? chosen : ids.map((id) => ({ id, name: '' }));
  };
}

/** The workspace's tags as a picker, with '+ create tag' for a new name. */
export function TagPicker(props: { value: number[]; onChange(next: number[]): void; error?: string | null }) {
  const tags = useTags();
  const create = useCreateTag();
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
      onCreate={(name) =>
        create.mutate(name, {
          onSuccess: (res) => props.onChange([...props.value, res.data.id]),
          onError: (err) => notifyFailure(errorMessage(err)),
        })
      }
    />
  );
}
