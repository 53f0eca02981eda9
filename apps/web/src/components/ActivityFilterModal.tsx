import { useState } from 'react';
import { Button, Group, NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { LazyModal } from './LazyModal.tsx';
import { OPERATORS } from '@flywheel/shared/constants';
import { emptyActivityFilter, type ActivityFilterState, type Comparison } from '../lib/activity-filter.ts';

type Props = {
  opened: boolean;
  value: ActivityFilterState | null;
  onClose(): void;
  onApply(next: ActivityFilterState | null): void;
};

const ROWS = [
  ['messages', 'Messages'],
  ['reactions', 'Reactions'],
  ['replies', 'Replies'],
] as const;

/** Activity Filter: AND (default) or OR over Messages, Reactions and Replies, each with >, < or = and a count. */
export function ActivityFilterModal({ opened, value, onClose, onApply }: Props) {
  return (
    <LazyModal opened={opened} onClose={onClose} title="Activity Filter">
      {opened ? <ActivityForm value={value} onClose={onClose} onApply={onApply} /> : null}
    </LazyModal>
  );
}

function ActivityForm({ value, onClose, onApply }: Omit<Props, 'opened'>) {
  const [f, setF] = useState<ActivityFilterState>(value ?? emptyActivityFilter());
  return (
    <Stack>
      <SegmentedControl
        aria-label="Combine with"
        data={['AND', 'OR']}
        value={f.type}
        onChange={(v) => setF({ ...f, type: v as 'AND' | 'OR' })}
      />
      <ComparisonRows value={f} onChange={setF} />
      <Text fz="xs" c="dimmed">
        Rows without an operator are not applied.
      </Text>
      <Group justify="space-between">
        <Button variant="subtle" color="gray" onClick={() => onApply(null)}>
          Clear
        </Button>
        <Group>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onApply(f)}>Apply</Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** Messages, Reactions and Replies, each an operator (>, <, = or none) and a count of 0 or more. */
export function ComparisonRows({
  value: f,
  onChange,
  align = 'flex-end',
  maw,
}: {
  value: ActivityFilterState;
  onChange(next: ActivityFilterState): void;
  align?: 'flex-end' | 'center';
  maw?: number;
}) {
  const set = (k: (typeof ROWS)[number][0], c: Partial<Comparison>) =>
    onChange({ ...f, [k]: { ...f[k], ...c } });
  return ROWS.map(([k, label]) => (
    <Group key={k} grow align={align} maw={maw}>
      <Text fz="sm" fw={500} maw={90}>
        {label}
      </Text>
      <Select
        aria-label={`${label} operator`}
        placeholder="operator"
        data={[...OPERATORS]}
        value={f[k].operator || null}
        clearable
        onChange={(v) => set(k, { operator: (v ?? '') as Comparison['operator'] })}
      />
      <NumberInput
        aria-label={`${label} count`}
        min={0}
        allowNegative={false}
        allowDecimal={false}
        value={f[k].count}
        onChange={(v) => set(k, { count: Math.max(0, Number(v) || 0) })}
      />
    </Group>
  ));
}
