import { useState } from 'react';
import { Select, Text } from '@mantine/core';
import { TIME_FILTER_DAYS } from '@flywheel/shared/constants';
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
  const data = [
    ...TIME_FILTER_DAYS.map((d) => ({ value: String(d), label: `Last ${d} days` })),
    {
      value: CUSTOM,
      label:
        props.value.type === 'dynamic'
          ? `${props.value.start_date} – ${props.value.end_date}`
          : 'Custom range…',
    },
  ];
  return (
    <>
      <Select
        aria-label={props.label ?? 'Time filter'}
        data={data}
        value={current}
        allowDeselect={false}
        disabled={props.disabled}
        w={props.prefix ? 250 : 200}
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
