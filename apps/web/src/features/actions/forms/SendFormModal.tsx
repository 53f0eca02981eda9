import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { FORM_TEXTS, type FormRow } from '@flywheel/shared/forms';
import { NO_TARGETS, TargetPickers, type PickedTargets } from '../../../components/TargetPickers.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useCurrentTeam } from '../../../lib/workspace-data.ts';
import { useExecuteForm } from './api.ts';

/** Spec section 2 Send-form popup: members, channels, tags, Confirm; sending closes it. */
export function SendFormModal({ form, onClose }: { form: FormRow | null; onClose(): void }) {
  const { teamId } = useCurrentTeam();
  const [targets, setTargets] = useState<PickedTargets>(NO_TARGETS);
  const [problem, setProblem] = useState<string | null>(null);
  const send = useExecuteForm();
  const close = () => {
    if (send.isPending) return;
    setTargets(NO_TARGETS);
    setProblem(null);
    onClose();
  };
  const confirm = () => {
    if (!form) return;
    if (targets.members.length + targets.channels.length + targets.tags.length === 0) {
      setProblem(FORM_TEXTS.sendTarget);
      return;
    }
    send.mutate(
      {
        team_id: teamId,
        master_form_id: form.master_form_id,
        send_ids: { members: targets.members, channels: targets.channels, tags: targets.tags.map(Number) },
      },
      {
        onSuccess: (res) => {
          notifySuccess(res.message);
          setTargets(NO_TARGETS);
          setProblem(null);
          onClose();
        },
        onError: (err) => notifyFailure(errorMessage(err)),
      },
    );
  };
  return (
    <Modal opened={form !== null} onClose={close} title={form ? `Send ${form.form_title}` : ''} size="lg">
      <Stack gap="md">
        <TargetPickers
          pickers={['members', 'channels', 'tags']}
          value={targets}
          onChange={(t) => {
            setTargets(t);
            setProblem(null);
          }}
          labels={{ members: 'Members', channels: 'Channels', tags: 'Tags' }}
          disabled={send.isPending}
        />
        {problem ? (
          <Text c="red" fz="sm" role="alert">
            {problem}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={send.isPending}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={send.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
