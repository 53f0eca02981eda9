import { useMemo, useState } from 'react';
import { Box, Group, MultiSelect, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { wallClock } from '@flywheel/shared/clock';
import { WORKFLOW_LIMITS, WORKFLOW_TEXTS } from '@flywheel/shared/workflows';
import { ENGAGEMENT_LEVELS, LEVEL_LABELS, LEVEL_RULES, type EngagementLevel } from '@flywheel/shared/levels';
import { SenderPicker } from '../../../components/SenderPicker.tsx';
import { useBuckets } from '../../../entities/buckets/index.ts';
import { useChannels } from '../../../entities/workspace/index.ts';
import { useTags } from '../../../entities/tags/index.ts';
import {
  EMPTY_TRIGGER,
  hasProblems,
  timeBounds,
  TRIGGER_CHOICES,
  triggerProblems,
  type TriggerChoice,
  type TriggerDraft,
  type TriggerField,
} from '../flow.ts';
import { DialogFooter } from './DialogFooter.tsx';
import { useTouched } from './use-touched.ts';

const two = (n: number) => String(n).padStart(2, '0');
/** An instant as the dialog's DD/MM/YYYY HH:MM in the workspace's timezone (the hints' bounds). */
function wall(at: number, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${two(w.day)}/${two(w.month)}/${w.year} ${two(w.hour)}:${two(w.minute)}`;
}

/** Changing the type clears the fields of the other types. */
function withType(d: TriggerDraft, type: TriggerChoice | null): TriggerDraft {
  return {
    ...d,
    type,
    activity: type === 'member_activity' ? d.activity : null,
    days: type === 'member_activity' ? d.days : '',
    channel: type === 'channel_join' ? d.channel : null,
    level: type === 'level_change' ? d.level : null,
    date: type === 'time' ? d.date : '',
    time: type === 'time' ? d.time : '',
    tags: type === 'time' || type === null ? d.tags : EMPTY_TRIGGER.tags,
    segments: type === 'time' || type === null ? d.segments : EMPTY_TRIGGER.segments,
  };
}

/**
 * 'Initialize the Workflow': name, sender, trigger type and its fields — the channel
 * for Channel Join, Active / Inactive and the days for Member Activity, the date, time and audience (tags and
 * segments) for a Time Trigger. Tags or segments chosen leave only Time Trigger; a member type disables them.
 */
export function TriggerDialog(props: {
  initial: TriggerDraft;
  timeZone: string;
  onSubmit(d: TriggerDraft): void;
  onClose(): void;
}) {
  const [d, setD] = useState<TriggerDraft>(props.initial);
  const { touch, shown } = useTouched<TriggerField>();
  const now = Date.now();
  const problems = triggerProblems(d, props.timeZone, now);
  const bounds = timeBounds(now);
  const channels = useChannels();
  const tags = useTags();
  const buckets = useBuckets();
  const audience = d.tags.length + d.segments.length > 0;
  const memberType = d.type !== null && d.type !== 'time';

  const set = (next: Partial<TriggerDraft>, field?: TriggerField) => {
    setD((old) => ({ ...old, ...next }));
    if (field) touch(field);
  };
  const channelOptions = useMemo(
    () =>
      (channels.data ?? [])
        .filter((c) => !c.is_archived)
        .map((c) => ({ value: c.channel_id, label: `#${c.channel_name}` })),
    [channels.data],
  );

  return (
    <LazyModal opened onClose={props.onClose} title={WORKFLOW_TEXTS.initializeDialog} size="lg">
      <Stack gap="md">
        <TextInput
          label="Workflow name"
          placeholder="e.g. Welcome new members"
          value={d.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          onBlur={() => touch('name')}
          error={shown('name', problems)}
        />
        <Box onBlur={() => touch('sender')}>
          <SenderPicker
            value={d.sender}
            onChange={(sender) => set({ sender }, 'sender')}
            error={shown('sender', problems)}
          />
        </Box>
        <Select
          label="Trigger type"
          placeholder="Choose a trigger type"
          data={audience ? TRIGGER_CHOICES.filter((c) => c.value === 'time') : TRIGGER_CHOICES}
          value={d.type}
          onChange={(t) => {
            setD((old) => withType(old, (t as TriggerChoice | null) ?? null));
            touch('type');
          }}
          onBlur={() => touch('type')}
          error={shown('type', problems)}
          allowDeselect={false}
        />
        {d.type === 'channel_join' ? (
          <Select
            label="Channel"
            placeholder="Choose the channel to watch"
            data={channelOptions}
            value={d.channel}
            onChange={(channel) => set({ channel }, 'channel')}
            onBlur={() => touch('channel')}
            error={shown('channel', problems)}
            searchable
            limit={10}
            nothingFoundMessage="No channel found"
          />
        ) : null}
        {d.type === 'level_change' ? (
          <Select
            label="Level"
            placeholder="Choose the level"
            description={d.level ? LEVEL_RULES[d.level] : 'Fires once each time a member becomes this level'}
            data={ENGAGEMENT_LEVELS.filter((l) => l !== 'newcomer').map((l) => ({
              value: l,
              label: LEVEL_LABELS[l],
            }))}
            value={d.level}
            onChange={(level) => set({ level: level as EngagementLevel | null }, 'level')}
            onBlur={() => touch('level')}
            error={shown('level', problems)}
            allowDeselect={false}
          />
        ) : null}
        {d.type === 'member_activity' ? (
          <Group grow align="flex-start">
            <Box onBlur={() => touch('activity')}>
              <Radio.Group
                label="Members who become"
                value={d.activity ?? ''}
                onChange={(v) => set({ activity: v as TriggerDraft['activity'] }, 'activity')}
                error={shown('activity', problems)}
              >
                <Group gap="lg" mt={4}>
                  <Radio value="activity" label="Active" />
                  <Radio value="inactivity" label="Inactive" />
                </Group>
              </Radio.Group>
            </Box>
            <TextInput
              label="Time range (days)"
              type="number"
              min={1}
              max={10000}
              placeholder="e.g. 30"
              description={`${WORKFLOW_LIMITS.activityDaysMin} to ${WORKFLOW_LIMITS.activityDaysMax} days`}
              value={d.days}
              onChange={(e) => set({ days: e.currentTarget.value })}
              onBlur={() => touch('days')}
              error={shown('days', problems)}
            />
          </Group>
        ) : null}
        {d.type === 'time' ? (
          <Group grow align="flex-start">
            <TextInput
              label="Date"
              placeholder="DD/MM/YYYY"
              description={`From ${wall(bounds.min, props.timeZone).slice(0, 10)} to ${wall(bounds.max, props.timeZone).slice(0, 10)}`}
              value={d.date}
              maxLength={10}
              onChange={(e) => set({ date: e.currentTarget.value })}
              onBlur={() => touch('date')}
              error={shown('date', problems)}
            />
            <TextInput
              label="Time"
              placeholder="HH:MM"
              description={`Earliest ${wall(bounds.min, props.timeZone)} (${props.timeZone})`}
              value={d.time}
              maxLength={5}
              onChange={(e) => set({ time: e.currentTarget.value })}
              onBlur={() => {
                touch('time');
                if (d.date) touch('date');
              }}
              error={shown('time', problems)}
            />
          </Group>
        ) : null}
        <MultiSelect
          label="Tags"
          description={
            memberType ? 'Only a Time Trigger sends to tags' : 'A Time Trigger sends to these members'
          }
          placeholder={d.tags.length ? undefined : 'Choose tags'}
          data={(tags.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
          value={d.tags.map(String)}
          onChange={(v) => set({ tags: v.map(Number) })}
          disabled={memberType}
          searchable
        />
        <MultiSelect
          label="Segments"
          description={memberType ? 'Only a Time Trigger sends to segments' : 'Buckets made in Analytics'}
          placeholder={d.segments.length ? undefined : 'Choose segments'}
          data={(buckets.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))}
          value={d.segments.map(String)}
          onChange={(v) => set({ segments: v.map(Number) })}
          disabled={memberType}
          searchable
        />
        {audience ? (
          <Text fz="xs" c="dimmed">
            With tags or segments chosen, the workflow runs once, at its time, for them.
          </Text>
        ) : null}
      </Stack>
      <DialogFooter
        valid={!hasProblems(problems)}
        onCancel={props.onClose}
        onSubmit={() => props.onSubmit(d)}
      />
    </LazyModal>
  );
}
