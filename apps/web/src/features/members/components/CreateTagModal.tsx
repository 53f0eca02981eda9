import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useAddTags } from '../api/add-tags.ts';
import { useCreatingTag } from '../../../entities/tags/index.ts';
import { TagPicker, useChosenTags } from '../../../components/TagPicker.tsx';

/** Member detail '+ create tag': pick (or create) tags for one member; none picked says 'Select a tag'. */
export function CreateTagModal(props: { opened: boolean; onClose(): void; memberId: string }) {
  return (
    <LazyModal opened={props.opened} onClose={props.onClose} title="Add tag">
      {props.opened ? <Form {...props} /> : null}
    </LazyModal>
  );
}

function Form({ onClose, memberId }: { onClose(): void; memberId: string }) {
  const chosenTags = useChosenTags();
  const add = useAddTags();
  const creatingTag = useCreatingTag();
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    if (tagIds.length === 0) return setProblem('Select a tag');
    add.mutate(
      { tags: chosenTags(tagIds), memberIds: [memberId] },
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
      <TagPicker
        value={tagIds}
        onChange={(ids) => {
          setTagIds(ids);
          // A tag picked (or just created) answers 'Select a tag'.
          if (ids.length > 0) setProblem(null);
        }}
      />
      {problem ? (
        <Text c="red" fz="sm" role="alert">
          {problem}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={add.isPending} disabled={creatingTag}>
          add tag
        </Button>
      </Group>
    </Stack>
  );
}
