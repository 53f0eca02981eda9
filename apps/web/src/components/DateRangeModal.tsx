import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { LazyModal } from './LazyModal.tsx';
import { rangeProblem, todayString } from '../lib/time-filter.ts';

type DateRangeModalProps = {
  opened: boolean;
  onCancel(): void;
  onSubmit(range: { start_date: string; end_date: string }): void;
  initial?: { start_date: string; end_date: string };
};

/** 'Choose Start and End Dates': Submit applies and closes, Cancel only closes. */
export function DateRangeModal({ opened, onCancel, onSubmit, initial }: DateRangeModalProps) {
  return (
    <LazyModal opened={opened} onClose={onCancel} title="Choose Start and End Dates">
      {opened ? <RangeForm onCancel={onCancel} onSubmit={onSubmit} initial={initial} /> : null}
    </LazyModal>
  );
}

function RangeForm({ onCancel, onSubmit, initial }: Omit<DateRangeModalProps, 'opened'>) {
  const today = todayString();
  const [start, setStart] = useState(initial?.start_date ?? '');
  const [end, setEnd] = useState(initial?.end_date ?? '');
  const problem = rangeProblem(start, end, today);
  return (
    <Stack>
      <Group grow>
        <TextInput
          type="date"
          label="Start date"
          max={today}
          value={start}
          onChange={(e) => setStart(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label="End date"
          max={today}
          value={end}
          onChange={(e) => setEnd(e.currentTarget.value)}
        />
      </Group>
      {problem && (start || end) ? (
        <Text c="dimmed" fz="sm">
          {problem}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button disabled={problem !== null} onClick={() => onSubmit({ start_date: start, end_date: end })}>
          Submit
        </Button>
      </Group>
    </Stack>
  );
}
