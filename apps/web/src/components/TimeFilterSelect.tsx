import { useState } from 'react';
import { Select, Text } from '@mantine/core';
import { TIME_FILTER_DAYS } from '@flywheel/shared/constants';
import { formatDayRange } from '../lib/format-date.ts';
import type { TimeChoice } from '../lib/time-filter.ts';
import { DateRangeModal } from './DateRangeModal.tsx';

const CUSTOM = 'custom';

/** Time filter: 7, 14, 90 or 365 days, or a custom range chosen in a modal. */
export function TimeFilterSelect(props: {
  value: TimeChoice;
  onChange(next: TimeChoice): void;
  label?: string;
  /** A short word before the value ('Joined', 'Activity') where two time filters stand side by side. */
  prefix?: string;
  disabled?: boolean;
}) {
  const [custom, setCustom] = useState(false);
  const current = props.value.type === 'static' ? String(props.value.days) : CUSTOM;
  const range = props.value.type === 'dynamic' ? props.value : null;
  const data = [
    ...TIME_FILTER_DAYS.map((d) => ({ value: String(d), label: `Last ${d} days` })),
    // A custom range reads short ('1 Oct – 15 Nov 2026'); the control grows for it and its title has the exact days.
    { value: CUSTOM, label: range ? formatDayRange(range.start_date, range.end_date) : 'Custom range…' },
  ];
  return (
    <>
      <Select
        aria-label={props.label ?? 'Time filter'}
        data={data}
        value={current}
        allowDeselect={false}
        disabled={props.disabled}
        w={(props.prefix ? 250 : 200) + (range ? 60 : 0)}
        title={range ? `${range.start_date} – ${range.end_date}` : undefined}
        leftSection={
          props.prefix ? (
            <Text fz="xs" fw={600} c="dimmed">
              {props.prefix}
            </Text>
          ) : undefined
        }
        leftSectionWidth={props.prefix ? 70 : undefined}
        leftSectionPointerEvents="none"
        onChange={(v) => {
          if (v === CUSTOM) setCustom(true);
          else if (v) props.onChange({ type: 'static', days: Number(v) });
        }}
        onOptionSubmit={(v) => {
          // Picking 'custom' again re-opens the modal.
          if (v === CUSTOM) setCustom(true);
        }}
      />
      <DateRangeModal
        opened={custom}
        initial={props.value.type === 'dynamic' ? props.value : undefined}
        onCancel={() => setCustom(false)}
        onSubmit={(r) => {
          setCustom(false);
          props.onChange({ type: 'dynamic', ...r });
        }}
      />
    </>
  );
}
