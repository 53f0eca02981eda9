import { useMemo, useState } from 'react';
import { Button, Group, Input, Stack } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { ACTION_TEXTS, type ActionRow } from '@flywheel/shared/actions';
import { editorError, RichEditor, type EditorValue } from '../../../components/RichEditor.tsx';
import { TargetPickers, type PickedTargets } from '../../../components/TargetPickers.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { useUpdateAction } from './api/update-actions.ts';
import { useMentionLookup } from '../../../entities/members/index.ts';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Edit trigger: its DM members, channels and message; 'Edit' saves and updates the row. */
export function EditActionModal({ row, onClose }: { row: ActionRow | null; onClose(): void }) {
  return (
    <LazyModal
      opened={row !== null}
      onClose={onClose}
      title={row?.kind === 'schedule' ? 'Edit Schedule' : 'Edit Trigger'}
      size="xl"
      closeOnClickOutside={false}
    >
      {row ? <EditForm key={row.id} row={row} onClose={onClose} /> : null}
    </LazyModal>
  );
}

function EditForm({ row, onClose }: { row: ActionRow; onClose(): void }) {
  const { teamId } = useCurrentTeam();
  const update = useUpdateAction();
  const mentions = useMentionLookup();
  const initialHtml = useMemo(
    () => row.htmlmessage || `<p>${escapeHtml(row.message)}</p>`,
    [row.htmlmessage, row.message],
  );
  const [picked, setPicked] = useState<PickedTargets>({
    members: row.user_ids,
    tags: [],
    channels: row.channel_ids,
  });
  const [message, setMessage] = useState<EditorValue>({
    html: initialHtml,
    mrkdwn: row.message,
    text: row.message,
  });
  const [problems, setProblems] = useState<{ target: string | null; message: string | null }>({
    target: null,
    message: null,
  });

  const save = () => {
    const found = {
      target:
        picked.members.length + picked.channels.length > 0 || row.send_dm
          ? null
          : row.kind === 'automation'
            ? ACTION_TEXTS.automationTarget
            : ACTION_TEXTS.scheduleTarget,
      message:
        message.text.trim() === '' || message.mrkdwn.trim() === ''
          ? ACTION_TEXTS.emptyMessage
          : editorError(message),
    };
    setProblems(found);
    if (found.target || found.message) return;
    update.mutate(
      {
        team_id: teamId,
        id: row.id,
        user_ids: picked.members,
        channel_ids: picked.channels,
        message: message.mrkdwn,
        htmlmessage: message.html,
      },
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
    <Stack gap="md">
      <TargetPickers
        pickers={['members', 'channels']}
        value={picked}
        onChange={(next) => {
          setPicked(next);
          setProblems((p) => ({ ...p, target: null }));
        }}
        disabled={update.isPending}
      />
      {problems.target ? <Input.Error role="alert">{problems.target}</Input.Error> : null}
      <RichEditor
        initialHtml={initialHtml}
        onChange={(v) => {
          setMessage(v);
          setProblems((p) => ({ ...p, message: null }));
        }}
        mentions={mentions}
        error={problems.message}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button onClick={save} loading={update.isPending}>
          Edit
        </Button>
      </Group>
    </Stack>
  );
}
