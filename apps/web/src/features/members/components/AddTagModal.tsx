import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useAddTags } from '../api/add-tags.ts';
import { MemberPicker } from '../../../components/TargetPickers.tsx';
import { useCreatingTag } from '../../../entities/tags/index.ts';
import { TagPicker, useChosenTags } from '../../../components/TagPicker.tsx';

type AddTagModalProps = {
  opened: boolean;
  onClose(): void;
  /** Members chosen before opening (the table's checked rows). */
  memberIds: string[];
  /** Called after the tags were added (the page reloads its data). */
  onAdded?(): void;
};

/** Members screen 'Add Tag' popup: both members and tags are required ('Both fields are required...'). */
export function AddTagModal({ opened, onClose, memberIds, onAdded }: AddTagModalProps) {
  return (
    <LazyModal opened={opened} onClose={onClose} title="Add Tag" size="lg">
      {opened ? <AddTagForm initial={memberIds} onClose={onClose} onAdded={onAdded} /> : null}
    </LazyModal>
  );
}

function AddTagForm(props: { initial: string[]; onClose(): void; onAdded?(): void }) {
  const chosenTags = useChosenTags();
  const add = useAddTags();
  const creatingTag = useCreatingTag();
  const [memberIds, setMemberIds] = useState(props.initial);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    if (memberIds.length === 0 || tagIds.length === 0) return setProblem('Both fields are required...');
    setProblem(null);
    add.mutate(
      { tags: chosenTags(tagIds), memberIds },
      {
        onSuccess: (res) => {
          notifySuccess(res.message);
          props.onClose();
          props.onAdded?.();
        },
        onError: (err) => notifyFailure(errorMessage(err)),
      },
    );
  };

  return (
    <Stack>
      <MemberPicker
        label="Members"
        placeholder="Names, e-mails or ids (comma, space or semicolon between)"
        value={memberIds}
        onChange={(ids) => {
          setMemberIds(ids);
          if (ids.length > 0 && tagIds.length > 0) setProblem(null);
        }}
      />
      <TagPicker
        value={tagIds}
        onChange={(ids) => {
          setTagIds(ids);
          // Both fields filled (a tag picked or just created) answers 'Both fields are required...'.
          if (ids.length > 0 && memberIds.length > 0) setProblem(null);
        }}
      />
      {problem ? (
        <Text c="red" fz="sm" role="alert">
          {problem}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={add.isPending} disabled={creatingTag}>
          add tag
        </Button>
      </Group>
    </Stack>
  );
}
