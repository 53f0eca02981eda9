import { useMemo } from 'react';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure } from '../../../lib/notify.tsx';
import { useTags } from '../../../lib/workspace-data.ts';
import { useCreateTag } from '../api/create-tag.ts';
import { EntryPicker } from './EntryPicker.tsx';

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
