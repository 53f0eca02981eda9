import { useState } from 'react';
import {
  Group,
  Input,
  NumberInput,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { Poll, PollVoting } from '@flywheel/shared/polls';
import { ImagePicker } from '../../components/ImagePicker.tsx';
import { RichEditor } from '../../components/RichEditor.tsx';
import { SenderPicker } from '../../components/SenderPicker.tsx';
import { TargetPickers } from '../../components/TargetPickers.tsx';
import { Wizard } from '../../components/Wizard.tsx';
import { useMentionLookup } from '../../entities/members/index.ts';
import { useUploadFlow } from '../../entities/messages/index.ts';
import { RecurrenceFields } from '../../components/RecurrenceFields.tsx';
import { useCreatePoll } from './api.ts';
import { useCreateRecurringPoll } from './recurring-api.ts';
import {
  createBodyOf,
  createRecurringBodyOf,
  defaultEnd,
  EMPTY_POLL_DRAFT,
  EMPTY_POLL_START,
  localInput,
  NO_POLL_PROBLEMS,
  pollDraftProblems,
  pollStartProblems,
  startOf,
  type BallotDraft,
  type PollDraft,
  type PollProblems,
  type PollStart,
} from './draft.ts';
import { OptionsEditor } from './OptionsEditor.tsx';

function StartFields({
  value,
  onChange,
  timeZone,
}: {
  value: PollStart;
  onChange(next: PollStart): void;
  timeZone: string;
}) {
  const now = Date.now();
  return (
    <Stack gap="md">
      <TargetPickers
        pickers={['channels']}
        value={{ members: [], tags: [], channels: value.channels }}
        onChange={(v) => onChange({ ...value, channels: v.channels })}
        labels={{ channels: 'Channels' }}
      />
      <SenderPicker value={value.sender} onChange={(sender) => onChange({ ...value, sender })} />
      <Input.Wrapper label="Type" labelElement="div">
        <SegmentedControl
          mt={4}
          aria-label="Poll type"
          value={value.type}
          onChange={(type) => onChange({ ...value, type: type as PollStart['type'] })}
          data={[
            { value: 'instant', label: 'Non-scheduled' },
            { value: 'scheduled', label: 'Scheduled' },
            { value: 'recurring', label: 'Recurring' },
          ]}
        />
      </Input.Wrapper>
      {value.type === 'recurring' ? (
        <RecurrenceFields
          value={value.recurrence}
          onChange={(recurrence) => onChange({ ...value, recurrence })}
          timeZone={timeZone}
        />
      ) : null}
      {value.type === 'scheduled' ? (
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
      <Input.Wrapper
        label="Voting"
        labelElement="div"
        description="Emoji reactions: public, one choice. Buttons: anonymous or named, one or several choices."
      >
        <SegmentedControl
          mt={4}
          aria-label="Voting"
          value={value.voting}
          onChange={(voting) => onChange({ ...value, voting: voting as PollVoting })}
          data={[
            { value: 'emoji', label: 'Emoji reactions' },
            { value: 'buttons', label: 'Buttons' },
          ]}
        />
      </Input.Wrapper>
      {value.voting === 'buttons' ? (
        <BallotFields value={value.ballot} onChange={(ballot) => onChange({ ...value, ballot })} />
      ) : null}
    </Stack>
  );
}

/** A button poll's settings: anonymous, multiple choice (with its limit), voters adding options, results. */
function BallotFields({ value, onChange }: { value: BallotDraft; onChange(next: BallotDraft): void }) {
  const set = (patch: Partial<BallotDraft>) => onChange({ ...value, ...patch });
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap="sm">
        <Switch
          label="Anonymous"
          description="Nobody, admins included, sees who voted for what: counts only"
          checked={value.anonymous}
          onChange={(e) => set({ anonymous: e.currentTarget.checked })}
        />
        <Group align="flex-end" gap="md">
          <Switch
            label="Multiple choice"
            description="Members may choose several options"
            checked={value.multiple}
            onChange={(e) => set({ multiple: e.currentTarget.checked })}
          />
          {value.multiple ? (
            <NumberInput
              label="Max choices"
              description="Empty: no limit"
              min={1}
              max={10}
              allowDecimal={false}
              w={140}
              value={value.maxChoices}
              onChange={(n) => set({ maxChoices: typeof n === 'number' ? n : '' })}
            />
          ) : null}
        </Group>
        <Switch
          label="Voters may add an option"
          description="A button in Slack opens a box to add one (10 options at most)"
          checked={value.allowAdd}
          onChange={(e) => set({ allowAdd: e.currentTarget.checked })}
        />
        <Input.Wrapper label="Results" labelElement="div">
          <SegmentedControl
            mt={4}
            aria-label="Results"
            value={value.results}
            onChange={(results) => set({ results: results as BallotDraft['results'] })}
            data={[
              { value: 'live', label: 'Shown live' },
              { value: 'closed', label: 'Hidden until close' },
            ]}
          />
        </Input.Wrapper>
      </Stack>
    </Paper>
  );
}

function QuestionFields({
  start,
  draft,
  onChange,
  problems,
  timeZone,
  progress,
  busy,
}: {
  start: PollStart;
  draft: PollDraft;
  onChange(next: PollDraft): void;
  problems: PollProblems;
  timeZone: string;
  progress: number | null;
  busy: boolean;
}) {
  const mentions = useMentionLookup();
  const set = (patch: Partial<PollDraft>) => onChange({ ...draft, ...patch });
  const begins = startOf(start, timeZone);
  return (
    <Stack gap="md">
      <RichEditor
        label="Poll question"
        placeholder="Ask your question"
        initialHtml={draft.question.html}
        onChange={(question) => set({ question })}
        mentions={mentions}
        error={problems.question}
        minHeight={120}
      />
      <ImagePicker files={draft.files} onChange={(files) => set({ files })} disabled={busy} />
      <OptionsEditor
        options={draft.options}
        onChange={(options) => set({ options })}
        error={problems.options}
        disabled={busy}
        voting={start.voting}
      />
      {start.type === 'recurring' ? (
        <NumberInput
          label="Open for (hours)"
          description="How long each poll stays open for votes after it is posted"
          value={draft.hours ?? 24}
          min={1}
          max={2160}
          allowDecimal={false}
          onChange={(hours) => set({ hours })}
          error={problems.end}
          disabled={busy}
        />
      ) : (
        <TextInput
          type="datetime-local"
          label="End time"
          description={`When voting closes, in the workspace's timezone (${timeZone}); 24 hours after the start by default`}
          value={draft.end}
          min={localInput(begins + 60_000, timeZone)}
          step={60}
          onChange={(e) => set({ end: e.currentTarget.value })}
          error={problems.end}
          disabled={busy}
        />
      )}
      {progress !== null ? (
        <Stack gap={2}>
          <Progress value={progress} aria-label="Upload progress" animated={progress < 100} />
          <Text fz="xs" c="dimmed" ta="right">
            {progress}%
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
}

/**
 * '+Create Poll': step 1 channels, sender, Scheduled, Non-scheduled or Recurring (Every Day / Weekly at a time)
 * and Voting (emoji reactions or buttons with their settings, for a recurring poll's every occurrence too); step 2
 * the rich question with images, the options (each with its emoji) and the end time (a recurring poll: the hours
 * each occurrence stays open), then Create with upload progress.
 */
export function CreatePollWizard(props: {
  opened: boolean;
  onClose(): void;
  timeZone: string;
  createdBy?: string;
  onCreated?(poll: Poll): void;
}) {
  const [start, setStart] = useState(EMPTY_POLL_START);
  const [draft, setDraft] = useState<PollDraft>(EMPTY_POLL_DRAFT);
  const [problems, setProblems] = useState<PollProblems>(NO_POLL_PROBLEMS);
  const flow = useUploadFlow();
  const create = useCreatePoll();
  const createRecurring = useCreateRecurringPoll();
  const startProblems = pollStartProblems(start, props.timeZone);

  // The end time defaults to a day after the start, whenever the start changes (until the admin picks one).
  const [endTouched, setEndTouched] = useState(false);
  const changeStart = (next: PollStart) => {
    setStart(next);
    if (!endTouched) setDraft((d) => ({ ...d, end: defaultEnd(next, props.timeZone) }));
  };
  const edit = (next: PollDraft) => {
    if (next.end !== draft.end) setEndTouched(true);
    setDraft(next);
    // A problem shown goes away once fixed.
    setProblems((p) => {
      const now = pollDraftProblems(start, next, props.timeZone);
      return {
        question: p.question && now.question,
        options: p.options && now.options,
        end: p.end && now.end,
      };
    });
  };
  const shownDraft = draft.end ? draft : { ...draft, end: defaultEnd(start, props.timeZone) };

  const submit = async () => {
    const found = pollDraftProblems(start, shownDraft, props.timeZone);
    setProblems(found);
    if (found.question || found.options || found.end || flow.busy) return;
    const done = await flow.run(shownDraft.files, async (images) => {
      // A recurring poll: each of its runs is posted later as a poll of its own.
      if (start.type === 'recurring')
        return createRecurring.mutateAsync(
          createRecurringBodyOf(flow.teamId, start, shownDraft, images, props.createdBy),
        );
      const res = await create.mutateAsync(
        createBodyOf(flow.teamId, start, shownDraft, images, props.timeZone, props.createdBy),
      );
      props.onCreated?.(res.data);
      return res;
    });
    if (done) props.onClose();
  };

  return (
    <Wizard
      opened={props.opened}
      onClose={props.onClose}
      submitLabel="Create"
      onSubmit={submit}
      pending={flow.busy}
      size="xl"
      steps={[
        {
          title: 'Create Poll',
          error: startProblems.basic ?? startProblems.detail,
          validation: startProblems.basic ? 'disable' : 'message',
          content: <StartFields value={start} onChange={changeStart} timeZone={props.timeZone} />,
        },
        {
          title: 'Poll Question and Options',
          content: (
            <QuestionFields
              start={start}
              draft={shownDraft}
              onChange={edit}
              problems={problems}
              timeZone={props.timeZone}
              progress={flow.progress}
              busy={flow.busy}
            />
          ),
        },
      ]}
    />
  );
}
