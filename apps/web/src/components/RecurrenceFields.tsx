import { Chip, Group, Input, Select, TextInput } from '@mantine/core';
import type { DayCode } from '@flywheel/shared/clock';
import { DAY_LABEL, DAYS } from '../lib/schedule-time.ts';

/** Every Day or Weekly (on days) at a time of day in the workspace's timezone. */
export type RecurrenceDraft = { frequency: 'Everyday' | 'Weekly' | null; days: DayCode[]; time: string };
export const EMPTY_RECURRENCE: RecurrenceDraft = { frequency: null, days: [], time: '' };

/** Whether the recurrence is complete: a frequency, a time (HH:MM) and, weekly, at least one day. */
export const recurrenceComplete = (r: RecurrenceDraft) =>
  r.frequency !== null && /^\d{2}:\d{2}$/.test(r.time) && (r.frequency !== 'Weekly' || r.days.length > 0);

/**
 * The recurrence of a recurring form or poll: Frequency (Every Day or Weekly), the days of a weekly one, and
 * the time in the workspace's timezone.
 */
export function RecurrenceFields({
  value,
  onChange,
  timeZone,
}: {
  value: RecurrenceDraft;
  onChange(next: RecurrenceDraft): void;
  timeZone: string;
}) {
  return (
    <>
      <Select
        label="Frequency"
        placeholder="Choose how often"
        data={[
          { value: 'Everyday', label: 'Every Day' },
          { value: 'Weekly', label: 'Weekly' },
        ]}
        value={value.frequency}
        onChange={(f) => onChange({ ...value, frequency: (f as RecurrenceDraft['frequency']) ?? null })}
        allowDeselect={false}
      />
      {value.frequency === 'Weekly' ? (
        <Input.Wrapper label="Days" labelElement="div">
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
      <TextInput
        type="time"
        label="Time"
        description={`In the workspace's timezone (${timeZone})`}
        value={value.time}
        step={60}
        onChange={(e) => onChange({ ...value, time: e.currentTarget.value })}
      />
    </>
  );
}
