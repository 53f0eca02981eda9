import { useState } from 'react';
import { Chip, Group, Input, Select, Stack, TextInput } from '@mantine/core';
import type { ActionRow } from '@flywheel/shared/actions';
import { FREQUENCIES, wallClock, type DayCode, type Frequency } from '@flywheel/shared/clock';
import { SenderPicker } from '../../../components/SenderPicker.tsx';
import { Wizard } from '../../../components/Wizard.tsx';
import { useCreateScheduled } from './create-scheduled.ts';
import {
  messageFieldsOf,
  composeProblems,
  EMPTY_COMPOSE,
  EMPTY_SCHEDULE_START,
  scheduleStartProblems,
  type ComposeDraft,
  type ComposeProblems,
  type ScheduleStart,
} from '../action-messages/draft.ts';
import { DAY_LABEL, DAYS, FREQUENCY_LABEL, postAtOf } from '../../../lib/schedule-time.ts';
import { useRecipientsConfirmation } from '../../../components/confirm-recipients.tsx';
import { useUploadFlow } from '../../../entities/messages/index.ts';
import { ComposeStep } from '../action-messages/ComposeStep.tsx';

const NO_PROBLEMS: ComposeProblems = { target: null, message: null };

/** The picker's value for an instant in `timeZone` (YYYY-MM-DDTHH:MM), for its min and max. */
function localInput(at: number, timeZone: string): string {
  const w = wallClock(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}

function ScheduleFields({
  value,
  onChange,
  timeZone,
}: {
  value: ScheduleStart;
  onChange(next: ScheduleStart): void;
  timeZone: string;
}) {
  const now = Date.now();
  return (
    <Stack gap="md">
      <TextInput
        label="Message Heading"
        placeholder="e.g. Weekly community digest"
        value={value.heading}
        onChange={(e) => onChange({ ...value, heading: e.currentTarget.value })}
        maxLength={120}
      />
      <SenderPicker
        label="Sender"
        value={value.sender}
        onChange={(sender) => onChange({ ...value, sender })}
      />
      <Select
        label="Frequency"
        placeholder="Choose how often"
        data={FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABEL[f] }))}
        value={value.frequency}
        onChange={(f) => onChange({ ...value, frequency: (f as Frequency | null) ?? null })}
        allowDeselect={false}
      />
      {value.frequency === 'onetime' ? (
        <TextInput
          type="datetime-local"
          label="Date and time"
          description={`In the workspace's timezone (${timeZone}), 15 minutes to 30 days ahead`}
          value={value.at}
          min={localInput(now + 15 * 60_000, timeZone)}
          max={localInput(now + 30 * 86_400_000, timeZone)}
          step={60}
          onChange={(e) => onChange({ ...value, at: e.currentTarget.value })}
        />
      ) : null}
      {value.frequency === 'Weekly' ? (
        <Input.Wrapper label="Days" id="schedule-days" labelElement="div" size="md">
          <Chip.Group
            multiple
            value={value.days}
            onChange={(days) => onChange({ ...value, days: days as DayCode[] })}
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
      {value.frequency && value.frequency !== 'onetime' ? (
        <TextInput
          type="time"
          label="Time"
          description={`In the workspace's timezone (${timeZone})`}
          value={value.time}
          step={60}
          onChange={(e) => onChange({ ...value, time: e.currentTarget.value })}
        />
      ) : null}
    </Stack>
  );
}

/**
 * '+ Schedule Message': step 1 'Enter Message Heading' (heading, sender, frequency and when, in
 * the workspace's timezone), step 2 'Compose Message', then 'create Trigger'.
 */
export function ScheduleWizard(props: {
  opened: boolean;
  onClose(): void;
  timeZone: string;
  onCreated?(row: ActionRow): void;
}) {
  const [start, setStart] = useState(EMPTY_SCHEDULE_START);
  const [draft, setDraft] = useState<ComposeDraft>(EMPTY_COMPOSE);
  const [problems, setProblems] = useState<ComposeProblems>(NO_PROBLEMS);
  const flow = useUploadFlow();
  const create = useCreateScheduled();
  const { withConfirmation, confirmation } = useRecipientsConfirmation();
  const startProblems = scheduleStartProblems(start, props.timeZone);

  const edit = (next: ComposeDraft) => {
    setDraft(next);
    setProblems((p) => ({
      target: p.target && composeProblems('schedule', next).target,
      message: p.message && next.message !== draft.message ? null : p.message,
    }));
  };

  const submit = async () => {
    const found = composeProblems('schedule', draft);
    setProblems(found);
    if (found.target || found.message || flow.busy || !start.frequency) return;
    const when =
      start.frequency === 'onetime'
        ? { post_at: postAtOf(start.at) ?? undefined }
        : { time: start.time, days: start.frequency === 'Weekly' ? start.days : [] };
    const done = await flow.run(draft.files, async (images) => {
      // The whole workspace (or many members) is confirmed with its count first.
      const res = await withConfirmation((confirm) =>
        create.mutateAsync({
          team_id: flow.teamId,
          trigger_name: start.heading.trim(),
          frequency: start.frequency!,
          ...when,
          ...messageFieldsOf(start.sender, draft, images),
          confirm_recipients: confirm,
        }),
      );
      props.onCreated?.(res.data);
      return res;
    });
    if (done) props.onClose();
  };

  return (
    <>
      {confirmation}
      <Wizard
        opened={props.opened}
        onClose={props.onClose}
        submitLabel="create Trigger"
        onSubmit={submit}
        pending={flow.busy}
        size="xl"
        steps={[
          {
            title: 'Enter Message Heading',
            error: startProblems.basic ?? startProblems.detail,
            validation: startProblems.basic ? 'disable' : 'message',
            content: <ScheduleFields value={start} onChange={setStart} timeZone={props.timeZone} />,
          },
          {
            title: 'Compose Message',
            content: (
              <ComposeStep
                kind="schedule"
                sender={start.sender}
                draft={draft}
                onChange={edit}
                problems={problems}
                progress={flow.progress}
                busy={flow.busy}
              />
            ),
          },
        ]}
      />
    </>
  );
}
