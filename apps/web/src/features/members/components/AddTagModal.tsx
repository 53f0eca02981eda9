import { useCallback, useMemo, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useCurrentTeam } from '../../../lib/workspace-data.ts';
import { hitToOption, lookupMembers, searchMembers, useMemberNames } from '../../../lib/member-directory.ts';
import { useAddTags } from '../api/add-tags.ts';
import { EntryPicker } from '../../../components/EntryPicker.tsx';
import { useCreatingTag } from '../../../lib/create-tag.ts';
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
  const { teamId } = useCurrentTeam();
  const chosenTags = useChosenTags();
  const add = useAddTags();
  const creatingTag = useCreatingTag();
  const [memberIds, setMemberIds] = useState(props.initial);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  // The chosen members' names; suggestions and pasted e-mails are asked from the server.
  const chosen = useMemberNames(memberIds);
  const options = useMemo(() => [...chosen.byId.values()].map(hitToOption), [chosen.byId]);
  const searchOptions = useCallback(
    async (q: string, signal: AbortSignal) =>
      (await searchMembers(teamId, q, { signal })).data.map(hitToOption),
    [teamId],
  );
  const lookupOptions = useCallback(
    async (entries: string[]) =>
      (await lookupMembers(teamId, { entries })).filter((m) => !m.deleted).map(hitToOption),
    [teamId],
  );

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
      <EntryPicker
        label="Members"
        placeholder="Names, e-mails or ids (comma, space or semicolon between)"
        what="member"
        options={options}
        searchOptions={searchOptions}
        lookupOptions={lookupOptions}
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
