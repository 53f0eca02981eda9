import { useState } from 'react';
import { Button, Group, SegmentedControl, Text, TextInput, useMatches } from '@mantine/core';
import { THREAD_DAY_PRESETS } from '@flywheel/shared/conversations';
import { customProblem, type WindowChoice } from './format.ts';

const CUSTOM = 'custom';
/** A datetime-local value for a Date (local time, minutes). */
const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** Threads time filter: 1, 7, 14 or 30 days, or a custom date-time range with Apply. */
export function WindowPicker({
  value,
  onChange,
}: {
  value: WindowChoice;
  onChange(next: WindowChoice): void;
}) {
  const [custom, setCustom] = useState(value.kind === 'custom');
  const [start, setStart] = useState(
    value.kind === 'custom' ? value.start : local(new Date(Date.now() - 7 * 86_400_000)),
  );
  const [end, setEnd] = useState(value.kind === 'custom' ? value.end : local(new Date()));
  const problem = customProblem(start, end);
  // On a phone the five choices share the card's width instead of running past its edge.
  const phone = useMatches({ base: true, sm: false });
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <SegmentedControl
        aria-label="Time filter"
        size={phone ? 'xs' : 'sm'}
        fullWidth={phone}
        style={phone ? { flex: '1 1 100%' } : undefined}
        value={custom ? CUSTOM : value.kind === 'days' ? String(value.days) : CUSTOM}
        data={[
          ...THREAD_DAY_PRESETS.map((d) => ({ value: String(d), label: d === 1 ? '1 day' : `${d} days` })),
          { value: CUSTOM, label: 'Custom' },
        ]}
        onChange={(v) => {
          if (v === CUSTOM) return setCustom(true);
          setCustom(false);
          onChange({ kind: 'days', days: Number(v) as (typeof THREAD_DAY_PRESETS)[number] });
        }}
      />
      {custom ? (
        <>
          <TextInput
            type="datetime-local"
            label="Start"
            size="xs"
            max={local(new Date())}
            value={start}
            onChange={(e) => setStart(e.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label="End"
            size="xs"
            max={local(new Date())}
            value={end}
            onChange={(e) => setEnd(e.currentTarget.value)}
          />
          <Button
            size="xs"
            disabled={problem !== null}
            onClick={() => onChange({ kind: 'custom', start, end })}
          >
            Apply
          </Button>
          {problem ? (
            <Text fz="xs" c="red" role="alert">
              {problem}
            </Text>
          ) : null}
        </>
      ) : null}
    </Group>
  );
}
