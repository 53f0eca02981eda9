import { useMemo, useState } from 'react';
import { Anchor, Button, Group, Loader, Paper, Select, Stack, Text } from '@mantine/core';
import { LazyModal } from './LazyModal.tsx';
import { Link } from 'react-router';
import { FORM_TEXTS, type FormRow } from '@flywheel/shared/forms';
import { NO_TARGETS, TargetPickers, type PickedTargets } from './TargetPickers.tsx';
import { errorMessage } from '../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../lib/notify.tsx';
import { useCurrentTeam } from '../entities/workspace/index.ts';
import { nameOfHit, useMemberNames } from '../entities/members/index.ts';
import { useExecuteForm, useForms } from '../entities/forms/index.ts';
import { useRecipientsConfirmation } from './confirm-recipients.tsx';
import { ConfirmationDeclined } from '../lib/confirmation-declined.ts';

/** This product's texts for the Send Form popup of selected people . */
export const SEND_FORM_TEXTS = {
  title: 'Send Form',
  chooseForm: 'Choose a form to send',
  noForms: 'No forms yet',
  createHint: 'Create one in the Forms tab, then send it from here.',
  createLink: 'Go to the Forms tab',
} as const;

/** How many of the preset members are named in the popup before '+ N more'. */
const NAMED = 5;

export type SendFormModalProps = {
  opened: boolean;
  onClose(): void;
  /** The form to send (the Form Table's Send); without it the popup offers the workspace's forms to choose. */
  form?: FormRow | null;
  /**
   * Exactly these members get it (Send Form for people selected in thread detail or poll voters): they are
   * named, not picked. Without it the popup has the members, channels and tags pickers (Send-form popup).
   */
  memberIds?: readonly string[];
  /** After a send (the popup has closed): e.g. clear the selection. */
  onSent?(): void;
};

/**
 * Send-form popup (members, channels, tags, Confirm) and the Send Form popup of thread detail
 * and poll voters (a form chosen for preset members). Either way: a new instance through POST
 * /actions/executeform, 'Form sent successfully', and the popup closes; a refusal is a red 'Failure' toast.
 */
export function SendFormModal({ opened, onClose, form, memberIds, onSent }: SendFormModalProps) {
  // The title keeps the form's name while the popup fades out (the Forms tab clears it on close).
  const [named, setNamed] = useState<FormRow | null>(form ?? null);
  if (form && form !== named) setNamed(form);
  const shown = memberIds ? form : (form ?? named);
  const send = useExecuteForm();
  const close = () => {
    if (!send.isPending) onClose();
  };
  return (
    <LazyModal
      opened={opened}
      onClose={close}
      title={shown ? `Send ${shown.form_title}` : SEND_FORM_TEXTS.title}
      size="lg"
    >
      {opened ? (
        <SendFormBody
          form={form ?? null}
          memberIds={memberIds}
          send={send}
          onCancel={close}
          onSent={() => {
            onClose();
            onSent?.();
          }}
        />
      ) : null}
    </LazyModal>
  );
}

function SendFormBody({
  form,
  memberIds,
  send,
  onCancel,
  onSent,
}: {
  form: FormRow | null;
  memberIds?: readonly string[];
  send: ReturnType<typeof useExecuteForm>;
  onCancel(): void;
  /** After a send: the popup closes. */
  onSent(): void;
}) {
  const { teamId } = useCurrentTeam();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [targets, setTargets] = useState<PickedTargets>(NO_TARGETS);
  const [problem, setProblem] = useState<string | null>(null);
  const forms = useForms();
  const noForms = form === null && forms.data?.length === 0;
  const { withConfirmation, confirmation } = useRecipientsConfirmation();

  const confirm = () => {
    if (send.isPending) return;
    const formId = form?.master_form_id ?? (chosenId ? Number(chosenId) : null);
    if (formId === null) return setProblem(SEND_FORM_TEXTS.chooseForm);
    const sendIds = memberIds
      ? { members: [...memberIds], channels: [], tags: [] }
      : { members: targets.members, channels: targets.channels, tags: targets.tags.map(Number) };
    if (sendIds.members.length + sendIds.channels.length + sendIds.tags.length === 0)
      return setProblem(FORM_TEXTS.sendTarget);
    setProblem(null);
    // Many members (tags, channels' members) are confirmed with their count first.
    withConfirmation((confirm) =>
      send.mutateAsync({
        team_id: teamId,
        master_form_id: formId,
        send_ids: sendIds,
        confirm_recipients: confirm,
      }),
    ).then(
      (res) => {
        notifySuccess(res.message);
        onSent();
      },
      (err: unknown) => {
        if (!(err instanceof ConfirmationDeclined)) notifyFailure(errorMessage(err));
      },
    );
  };

  return (
    <Stack gap="md">
      {confirmation}
      {memberIds ? <Recipients memberIds={memberIds} /> : null}
      {form === null ? (
        <FormChoice
          value={chosenId}
          onChange={(id) => {
            setChosenId(id);
            setProblem(null);
          }}
          disabled={send.isPending}
        />
      ) : null}
      {memberIds ? null : (
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
      )}
      {problem ? (
        <Text c="red" fz="sm" role="alert">
          {problem}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={send.isPending}>
          Cancel
        </Button>
        <Button onClick={confirm} loading={send.isPending} disabled={noForms}>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}

/** A searchable select of the workspace's forms, or where to create one when there are none. */
function FormChoice({
  value,
  onChange,
  disabled,
}: {
  value: string | null;
  onChange(id: string | null): void;
  disabled: boolean;
}) {
  const forms = useForms();
  const options = useMemo(
    () => (forms.data ?? []).map((f) => ({ value: String(f.master_form_id), label: f.form_title })),
    [forms.data],
  );
  const chosen = forms.data?.find((f) => String(f.master_form_id) === value);

  if (forms.isError)
    return (
      <Text c="red" fz="sm" role="alert">
        {errorMessage(forms.error)}
      </Text>
    );
  if (forms.data && forms.data.length === 0)
    return (
      <Paper withBorder radius="md" p="md" bg="var(--mantine-color-gray-0)">
        <Text fw={600} fz="sm">
          {SEND_FORM_TEXTS.noForms}
        </Text>
        <Text fz="sm" c="dimmed">
          {SEND_FORM_TEXTS.createHint}
        </Text>
        <Anchor component={Link} to="/dashboard/actions/forms" fz="sm">
          {SEND_FORM_TEXTS.createLink}
        </Anchor>
      </Paper>
    );
  return (
    <Stack gap={4}>
      <Select
        label="Form"
        placeholder={forms.data ? 'Search forms' : 'Loading forms…'}
        data={options}
        value={value}
        onChange={onChange}
        searchable
        nothingFoundMessage="No form has that name"
        rightSection={forms.isPending ? <Loader size={14} /> : undefined}
        disabled={disabled || !forms.data}
        comboboxProps={{ withinPortal: true }}
      />
      {chosen ? (
        <Text fz="xs" c="dimmed">
          {chosen.form_description} · {chosen.questions.length} question
          {chosen.questions.length === 1 ? '' : 's'} · sent as {chosen.sender_label}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Whom it goes to: the preset members by name (the first few, then how many more). */
function Recipients({ memberIds }: { memberIds: readonly string[] }) {
  // Only the names shown are looked up.
  const shown = useMemo(() => memberIds.slice(0, NAMED), [memberIds]);
  const named = useMemberNames(shown);
  const names = shown.map((id) => {
    const hit = named.byId.get(id);
    return hit ? nameOfHit(hit) : id;
  });
  const n = memberIds.length;
  const more = n - NAMED;
  return (
    <Text fz="sm" c="dimmed" data-testid="send-form-recipients">
      To {n} member{n === 1 ? '' : 's'}
      {n > 0 ? `: ${names.slice(0, NAMED).join(', ')}${more > 0 ? ` and ${more} more` : ''}` : ''}
    </Text>
  );
}
