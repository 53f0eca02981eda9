import { useState } from 'react';
import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Chip,
  Group,
  Input,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { FORM_LIMITS, FORM_TEXTS, QUESTION_TYPES, type QuestionType } from '@flywheel/shared/forms';
import { SenderPicker } from '../../../components/SenderPicker.tsx';
import { TargetPickers } from '../../../components/TargetPickers.tsx';
import { Wizard } from '../../../components/Wizard.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useCurrentTeam } from '../../../lib/workspace-data.ts';
import { DAY_LABEL, DAYS } from '../draft.ts';
import { useCreateForm } from './api.ts';
import {
  createFormBody,
  EMPTY_FORM_START,
  emptyQuestions,
  newQuestion,
  QUESTION_TYPE_LABEL,
  questionProblems,
  startProblems,
  type DraftQuestion,
  type FormQuestions,
  type FormStart,
} from './form-draft.ts';

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
        <>
          <Select
            label="Frequency"
            placeholder="Choose how often"
            data={[
              { value: 'Everyday', label: 'Every Day' },
              { value: 'Weekly', label: 'Weekly' },
            ]}
            value={value.frequency}
            onChange={(f) => onChange({ ...value, frequency: (f as FormStart['frequency']) ?? null })}
            allowDeselect={false}
          />
          {value.frequency === 'Weekly' ? (
            <Input.Wrapper label="Days" labelElement="div">
              <Chip.Group
                multiple
                value={value.days}
                onChange={(days) => onChange({ ...value, days: days as FormStart['days'] })}
              >
                <Group gap={6} mt={4} role="group" aria-label="Days">
                  {DAYS.map((d) => (
                    <Chip key={d} value={d} size="sm" variant="outline">
                      {DAY_LABEL[d]}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
            </Input.Wrapper>
          ) : null}
          <TextInput
            type="time"
            label="Time"
            description={`In the workspace's timezone (${timeZone})`}
            value={value.time}
            step={60}
            onChange={(e) => onChange({ ...value, time: e.currentTarget.value })}
          />
        </>
      )}
    </Stack>
  );
}

function QuestionCard({
  q,
  index,
  problems,
  show,
  onChange,
  onRemove,
  canRemove,
}: {
  q: DraftQuestion;
  index: number;
  problems: { heading: string | null; options: (string | null)[] } | undefined;
  show: boolean;
  onChange(next: DraftQuestion): void;
  onRemove(): void;
  canRemove: boolean;
}) {
  const n = index + 1;
  const full = q.options.length >= FORM_LIMITS.options;
  return (
    <Card withBorder radius="md" padding="md" data-question={n}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} fz="sm">{`Question ${n}`}</Text>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove question ${n}`}
            disabled={!canRemove}
            onClick={onRemove}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <Group grow align="flex-start">
          <Select
            label={`Question ${n} type`}
            data={QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABEL[t] }))}
            value={q.type}
            allowDeselect={false}
            onChange={(t) => {
              const type = (t as QuestionType) ?? 'descriptive';
              onChange({
                ...q,
                type,
                options: type === 'mcq' && q.options.length === 0 ? ['', ''] : q.options,
              });
            }}
          />
          <Switch
            mt={30}
            label="Optional"
            checked={q.optional}
            onChange={(e) => onChange({ ...q, optional: e.currentTarget.checked })}
          />
        </Group>
        <TextInput
          label={`Question ${n} title`}
          placeholder="What would you like to ask?"
          value={q.heading}
          maxLength={FORM_LIMITS.questionTitle}
          error={show ? problems?.heading : null}
          onChange={(e) => onChange({ ...q, heading: e.currentTarget.value })}
        />
        <TextInput
          label={`Question ${n} hint`}
          placeholder="Optional help shown under the answer"
          value={q.description}
          maxLength={150}
          onChange={(e) => onChange({ ...q, description: e.currentTarget.value })}
        />
        {q.type === 'mcq' ? (
          <Stack gap={6}>
            {q.options.map((o, i) => (
              <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
                <TextInput
                  style={{ flex: 1 }}
                  aria-label={`Question ${n} option ${i + 1}`}
                  placeholder={`Option ${i + 1}`}
                  value={o}
                  maxLength={FORM_LIMITS.optionValue}
                  error={show ? problems?.options[i] : null}
                  onChange={(e) => {
                    const options = [...q.options];
                    options[i] = e.currentTarget.value;
                    onChange({ ...q, options });
                  }}
                />
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  mt={4}
                  aria-label={`Remove option ${i + 1} of question ${n}`}
                  disabled={q.options.length <= 1}
                  onClick={() => onChange({ ...q, options: q.options.filter((_, j) => j !== i) })}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              </Group>
            ))}
            <Group gap="xs">
              <Button
                variant="subtle"
                size="xs"
                leftSection={<IconPlus size={14} />}
                disabled={full}
                onClick={() => onChange({ ...q, options: [...q.options, ''] })}
              >
                Add option
              </Button>
              {full ? (
                <Text fz="xs" c="dimmed">
                  {FORM_TEXTS.maxOptions}
                </Text>
              ) : null}
            </Group>
          </Stack>
        ) : null}
      </Stack>
    </Card>
  );
}

function QuestionsFields({
  value,
  onChange,
  show,
}: {
  value: FormQuestions;
  onChange(next: FormQuestions): void;
  show: boolean;
}) {
  const problems = questionProblems(value);
  const setQuestion = (i: number, q: DraftQuestion) =>
    onChange({ ...value, questions: value.questions.map((x, j) => (j === i ? q : x)) });
  return (
    <Stack gap="md">
      <Textarea
        label="Form Description"
        placeholder="What is this form about?"
        value={value.description}
        maxLength={FORM_LIMITS.description}
        autosize
        minRows={2}
        description={`${value.description.length}/${FORM_LIMITS.description}`}
        error={show ? problems.description : null}
        onChange={(e) => onChange({ ...value, description: e.currentTarget.value })}
      />
      {value.questions.map((q, i) => (
        <QuestionCard
          key={q.id}
          q={q}
          index={i}
          problems={problems.questions[q.id]}
          show={show}
          canRemove={value.questions.length > 1}
          onChange={(next) => setQuestion(i, next)}
          onRemove={() => onChange({ ...value, questions: value.questions.filter((x) => x.id !== q.id) })}
        />
      ))}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          disabled={value.questions.length >= FORM_LIMITS.questions}
          onClick={() => onChange({ ...value, questions: [...value.questions, newQuestion()] })}
        >
          Add question
        </Button>
      </Group>
      <Textarea
        label="Acknowledgement message"
        description="Sent to each member after they submit"
        value={value.ackMessage}
        maxLength={FORM_LIMITS.ackMessage}
        autosize
        minRows={1}
        onChange={(e) => onChange({ ...value, ackMessage: e.currentTarget.value })}
      />
    </Stack>
  );
}

/**
 * '+Create Form' (spec section 2): step 1 (sender, 'Name of the Form', DM and channel targets, one time —
 * 'Send Instantaneous' or a date and time — or recurring Every Day / Weekly at a time), step 2 'Make Your Form
 * Questions' (description, questions, acknowledgement), then Create.
 */
export function CreateFormWizard(props: { opened: boolean; onClose(): void; timeZone: string }) {
  const { teamId } = useCurrentTeam();
  const [start, setStart] = useState<FormStart>(EMPTY_FORM_START);
  const [questions, setQuestions] = useState<FormQuestions>(emptyQuestions);
  const [show, setShow] = useState(false);
  const create = useCreateForm();
  const first = startProblems(start, props.timeZone);
  const second = questionProblems(questions);

  const submit = async () => {
    setShow(true);
    if (second.first) return;
    try {
      const res = await create.mutateAsync(createFormBody(teamId, start, questions));
      notifySuccess(res.message);
      props.onClose();
    } catch (err) {
      notifyFailure(errorMessage(err));
      throw err;
    }
  };

  return (
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
          content: <QuestionsFields value={questions} onChange={setQuestions} show={show} />,
        },
      ]}
    />
  );
}
