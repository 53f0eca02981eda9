import { useState } from 'react';
import { Box, Group, Radio, Select, Stack, TextInput } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { DELAY_UNITS, WORKFLOW_LIMITS, WORKFLOW_TEXTS, type DelayUnit } from '@flywheel/shared/workflows';
import { delayProblems, hasProblems, type DelayDraft, type DelayField } from '../flow.ts';
import { DialogFooter } from './DialogFooter.tsx';
import { useTouched } from './use-touched.ts';

const UNIT_LABEL: Record<DelayUnit, string> = { minutes: 'Minutes', hours: 'Hours', days: 'Days' };

/** 'Set Delay': No Delay, or a duration in minutes, hours or days. */
export function DelayDialog(props: { initial: DelayDraft; onSubmit(d: DelayDraft): void; onClose(): void }) {
  const [d, setD] = useState<DelayDraft>(props.initial);
  const { touch, shown } = useTouched<DelayField>();
  const problems = delayProblems(d);
  const set = (next: Partial<DelayDraft>, field: DelayField) => {
    setD((old) => ({ ...old, ...next }));
    touch(field);
  };
  return (
    <LazyModal opened onClose={props.onClose} title={WORKFLOW_TEXTS.delayDialog} size="md">
      <Stack gap="md">
        <Box onBlur={() => touch('kind')}>
          <Radio.Group
            label="Delay type"
            value={d.kind ?? ''}
            onChange={(v) => set({ kind: v as DelayDraft['kind'] }, 'kind')}
            error={shown('kind', problems)}
          >
            <Group gap="lg" mt={4}>
              <Radio value="none" label="No Delay" />
              <Radio value="delay" label="Delay" />
            </Group>
          </Radio.Group>
        </Box>
        {d.kind === 'delay' ? (
          <Group grow align="flex-start">
            <TextInput
              label="Duration"
              inputMode="numeric"
              placeholder="e.g. 2"
              value={d.duration}
              onChange={(e) => set({ duration: e.currentTarget.value }, 'duration')}
              onBlur={() => touch('duration')}
              error={shown('duration', problems)}
              description={d.unit ? `1 to ${WORKFLOW_LIMITS.delayMax[d.unit]} ${d.unit}` : 'Choose a unit'}
            />
            <Select
              label="Unit"
              placeholder="Choose a unit"
              data={DELAY_UNITS.map((u) => ({ value: u, label: UNIT_LABEL[u] }))}
              value={d.unit}
              onChange={(u) => {
                set({ unit: (u as DelayUnit | null) ?? null }, 'unit');
                // A duration already typed is checked against the new unit's maximum.
                if (d.duration.trim()) touch('duration');
              }}
              onBlur={() => touch('unit')}
              error={shown('unit', problems)}
              allowDeselect={false}
            />
          </Group>
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
