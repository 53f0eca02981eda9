import { useState } from 'react';
import { Checkbox, Input, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { FORM_LIMITS } from '@flywheel/shared/forms';
import { SenderPicker } from '../../components/SenderPicker.tsx';
import { TargetPickers } from '../../components/TargetPickers.tsx';
import { Wizard } from '../../components/Wizard.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { RecurrenceFields } from '../../components/RecurrenceFields.tsx';
import { FormQuestionsEditor } from '../../components/FormQuestionsEditor.tsx';
import {
  emptyQuestions,
  questionProblems,
  type FormQuestions,
  useCreateForm,
} from '../../entities/forms/index.ts';
import { useRecipientsConfirmation } from '../../components/confirm-recipients.tsx';
import { ConfirmationDeclined } from '../../lib/confirmation-declined.ts';
import { createFormBody, EMPTY_FORM_START, startProblems, type FormStart } from './form-draft.ts';

function StartFields({
  value,
  onChange,
  timeZone,
}: {
  value: FormStart;
  onChange(next: FormStart): void;
  timeZone: string;
}) {
  return (
    <Stack gap="md">
      <SenderPicker
        label="Sender"
        value={value.sender}
        onChange={(sender) => onChange({ ...value, sender })}
      />
      <TextInput
        label="Name of the Form"
        placeholder="e.g. Weekly check-in"
        value={value.name}
        maxLength={FORM_LIMITS.name}
        description={`${value.name.length}/${FORM_LIMITS.name}`}
        onChange={(e) => onChange({ ...value, name: e.currentTarget.value })}
      />
      <TargetPickers
        pickers={['members', 'tags']}
        value={value.dm}
        onChange={(dm) => onChange({ ...value, dm })}
      />
      <TargetPickers
        pickers={['channels']}
        value={{ members: [], tags: [], channels: value.post }}
        onChange={(t) => onChange({ ...value, post: t.channels })}
        labels={{ channels: 'Send Form On Channel' }}
      />
      <Input.Wrapper label="When" labelElement="div">
        <SegmentedControl
          mt={4}
          fullWidth
          aria-label="When"
          data={[
            { value: 'onetime', label: 'One time' },
            { value: 'recurring', label: 'Recurring' },
          ]}
          value={value.recurring ? 'recurring' : 'onetime'}
          onChange={(v) => onChange({ ...value, recurring: v === 'recurring' })}
        />
      </Input.Wrapper>
      {!value.recurring ? (
        <>
          <Checkbox
            label="Send Instantaneous"
            checked={value.instant}
            onChange={(e) => onChange({ ...value, instant: e.currentTarget.checked })}
          />
          {!value.instant ? (
            <TextInput
              type="datetime-local"
              label="Date and time"
              description={`In the workspace's timezone (${timeZone})`}
              value={value.at}
              step={60}
              onChange={(e) => onChange({ ...value, at: e.currentTarget.value })}
            />
          ) : null}
        </>
      ) : (
        <RecurrenceFields
          value={{ frequency: value.frequency, days: value.days, time: value.time }}
          onChange={(r) => onChange({ ...value, ...r })}
          timeZone={timeZone}
        />
      )}
    </Stack>
  );
}

/**
 * '+Create Form': step 1 (sender, 'Name of the Form', DM and channel targets, one time —
 * 'Send Instantaneous' or a date and time — or recurring Every Day / Weekly at a time), step 2 'Make Your Form
 * Questions' (description, questions, acknowledgement), then Create.
 */
export function CreateFormWizard(props: { opened: boolean; onClose(): void; timeZone: string }) {
  const { teamId } = useCurrentTeam();
  const [start, setStart] = useState<FormStart>(EMPTY_FORM_START);
  const [questions, setQuestions] = useState<FormQuestions>(emptyQuestions);
  const [show, setShow] = useState(false);
  const create = useCreateForm();
  const { withConfirmation, confirmation } = useRecipientsConfirmation();
  const first = startProblems(start, props.timeZone);
  const second = questionProblems(questions);

  const submit = async () => {
    setShow(true);
    if (second.first) return;
    try {
      // The whole workspace (or many members) is confirmed with its count first.
      const res = await withConfirmation((confirm) =>
        create.mutateAsync({ ...createFormBody(teamId, start, questions), confirm_recipients: confirm }),
      );
      notifySuccess(res.message);
      props.onClose();
    } catch (err) {
      if (!(err instanceof ConfirmationDeclined)) notifyFailure(errorMessage(err));
      throw err;
    }
  };

  return (
    <>
      {confirmation}
      <Wizard
        opened={props.opened}
        onClose={props.onClose}
        submitLabel="Create"
        onSubmit={submit}
        pending={create.isPending}
        size="xl"
        steps={[
          {
            title: 'Create Form',
            error: first.basic ?? first.detail,
            validation: first.basic ? 'disable' : 'message',
            content: <StartFields value={start} onChange={setStart} timeZone={props.timeZone} />,
          },
          {
            title: 'Make Your Form Questions',
            error: show ? second.first : null,
            validation: 'message',
            content: <FormQuestionsEditor value={questions} onChange={setQuestions} show={show} />,
          },
        ]}
      />
    </>
  );
}
