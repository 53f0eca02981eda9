import { useState } from 'react';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  FORM_LIMITS,
  FORM_TEXTS,
  OPTION_TYPES,
  QUESTION_TYPES,
  type QuestionType,
} from '@flywheel/shared/forms';
import {
  newQuestion,
  QUESTION_TYPE_HINT,
  QUESTION_TYPE_LABEL,
  questionProblems,
  type DraftQuestion,
  type FormQuestions,
} from '../entities/forms/index.ts';

function QuestionCard({
  q,
  index,
  problems,
  show,
  onChange,
  onRemove,
  canRemove,
  touched,
  onTouch,
}: {
  q: DraftQuestion;
  index: number;
  problems:
    | { heading: string | null; options: (string | null)[]; min: string | null; max: string | null }
    | undefined;
  show: boolean;
  onChange(next: DraftQuestion): void;
  onRemove(): void;
  canRemove: boolean;
  touched: ReadonlySet<string>;
  onTouch(field: string): void;
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
                options: OPTION_TYPES.includes(type) && q.options.length === 0 ? ['', ''] : q.options,
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
          error={show || touched.has(`q${q.id}`) ? problems?.heading : null}
          onBlur={() => onTouch(`q${q.id}`)}
          onChange={(e) => onChange({ ...q, heading: e.currentTarget.value })}
        />
        <TextInput
          label={`Question ${n} hint`}
          placeholder="Optional help shown under the answer"
          value={q.description}
          maxLength={150}
          onChange={(e) => onChange({ ...q, description: e.currentTarget.value })}
        />
        {QUESTION_TYPE_HINT[q.type] ? (
          <Text fz="sm" c="dimmed">
            {QUESTION_TYPE_HINT[q.type]}
          </Text>
        ) : null}
        {q.type === 'number' ? (
          <Group grow align="flex-start">
            <TextInput
              label={`Question ${n} minimum`}
              placeholder="No minimum"
              inputMode="decimal"
              value={q.min}
              error={show || touched.has(`q${q.id}min`) ? problems?.min : null}
              onBlur={() => onTouch(`q${q.id}min`)}
              onChange={(e) => onChange({ ...q, min: e.currentTarget.value })}
            />
            <TextInput
              label={`Question ${n} maximum`}
              placeholder="No maximum"
              inputMode="decimal"
              value={q.max}
              error={show || touched.has(`q${q.id}max`) ? problems?.max : null}
              onBlur={() => onTouch(`q${q.id}max`)}
              onChange={(e) => onChange({ ...q, max: e.currentTarget.value })}
            />
            <Switch
              mt={30}
              label="Allow decimals"
              checked={q.decimal}
              onChange={(e) => onChange({ ...q, decimal: e.currentTarget.checked })}
            />
          </Group>
        ) : null}
        {OPTION_TYPES.includes(q.type) ? (
          <Stack gap={6}>
            {q.options.map((o, i) => (
              <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
                <TextInput
                  style={{ flex: 1 }}
                  aria-label={`Question ${n} option ${i + 1}`}
                  placeholder={`Option ${i + 1}`}
                  value={o}
                  maxLength={FORM_LIMITS.optionValue}
                  error={show || touched.has(`q${q.id}o${i}`) ? problems?.options[i] : null}
                  onBlur={() => onTouch(`q${q.id}o${i}`)}
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

/**
 * A form's description, questions (descriptive, multiple choice, short answer, checkboxes — up to 5 options
 * each for the two that pick —, a number with its bounds, a date, a rating 1-5 or yes/no; optional or
 * mandatory) and acknowledgement. A field's problem shows once it was left, or everywhere with `show`.
 */
export function FormQuestionsEditor({
  value,
  onChange,
  show,
}: {
  value: FormQuestions;
  onChange(next: FormQuestions): void;
  show: boolean;
}) {
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const onTouch = (field: string) => setTouched((t) => (t.has(field) ? t : new Set([...t, field])));
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
        error={show || touched.has('description') ? problems.description : null}
        onBlur={() => onTouch('description')}
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
          touched={touched}
          onTouch={onTouch}
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
