import { useState } from 'react';
import { Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import type { Bucket } from '@flywheel/shared/buckets';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useTags } from '../../../lib/workspace-data.ts';
import { useAddBucketTags } from '../api/add-bucket-tags.ts';

/** Add tags to every member of a bucket's last run ('Select a tag' without one). */
export function BucketTagModal({ bucket, onClose }: { bucket: Bucket | null; onClose(): void }) {
  return (
    <Modal opened={bucket !== null} onClose={onClose} title="Add Tag to bucket members">
      {bucket ? <TagForm bucket={bucket} onClose={onClose} /> : null}
    </Modal>
  );
}

function TagForm({ bucket, onClose }: { bucket: Bucket; onClose(): void }) {
  const tags = useTags();
  const add = useAddBucketTags();
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    if (tagIds.length === 0) return setProblem('Select a tag');
    setProblem(null);
    const chosen = (tags.data ?? []).filter((t) => tagIds.includes(t.id));
    add.mutate(
      { id: bucket.id, tags: chosen.length ? chosen : tagIds.map((id) => ({ id, name: '' })) },
      {
        onSuccess: (res) => {
          notifySuccess(res.message);
          onClose();
        },
        onError: (err) => notifyFailure(errorMessage(err)),
      },
    );
  };
  return (
    <Stack>
      <Text fz="sm" c="dimmed">
        The tags go to the {bucket.member_count ?? 0} member{bucket.member_count === 1 ? '' : 's'} the last
        run of <b>{bucket.name}</b> found.
      </Text>
      <MultiSelect
        label="Tags"
        placeholder={tagIds.length ? undefined : 'Choose tags'}
        data={(tags.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
        value={tagIds.map(String)}
        onChange={(v) => setTagIds(v.map(Number))}
        nothingFoundMessage="No tags yet: create one on the Members page"
        error={problem}
        searchable
        comboboxProps={{ withinPortal: true }}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={add.isPending}>
          Add Tag
        </Button>
      </Group>
    </Stack>
  );
}
