import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import type { Bucket } from '@flywheel/shared/buckets';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useCreatingTag } from '../../../entities/tags/index.ts';
import { TagPicker, useChosenTags } from '../../../components/TagPicker.tsx';
import { useAddBucketTags } from '../api/add-bucket-tags.ts';

/** Add tags to every member of a bucket's last run ('Select a tag' without one). */
export function BucketTagModal({ bucket, onClose }: { bucket: Bucket | null; onClose(): void }) {
  return (
    <LazyModal opened={bucket !== null} onClose={onClose} title="Add Tag to bucket members">
      {bucket ? <TagForm bucket={bucket} onClose={onClose} /> : null}
    </LazyModal>
  );
}

function TagForm({ bucket, onClose }: { bucket: Bucket; onClose(): void }) {
  const chosenTags = useChosenTags();
  const add = useAddBucketTags();
  const creatingTag = useCreatingTag();
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    if (tagIds.length === 0) return setProblem('Select a tag');
    setProblem(null);
    add.mutate(
      { id: bucket.id, tags: chosenTags(tagIds) },
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
      <TagPicker
        value={tagIds}
        onChange={(ids) => {
          setTagIds(ids);
          if (ids.length > 0) setProblem(null);
        }}
        error={problem}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={add.isPending} disabled={creatingTag}>
          Add Tag
        </Button>
      </Group>
    </Stack>
  );
}
