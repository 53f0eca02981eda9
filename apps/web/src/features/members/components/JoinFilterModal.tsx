import { useState } from 'react';
import { Button, Group, Radio, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { TIME_FILTER_DAYS } from '@flywheel/shared/constants';
import type { JoinFilterState } from '../filters.ts';
import { DateRangeModal } from '../../../components/DateRangeModal.tsx';

type Props = {
  opened: boolean;
  value: JoinFilterState | null;
  onClose(): void;
  onApply(next: JoinFilterState | null): void;
};

/** Join Filter: Workspace Join (default) or Left; date filter Fixed (days) or Custom (start and end). */
export function JoinFilterModal({ opened, value, onClose, onApply }: Props) {
  return (
    <LazyModal opened={opened} onClose={onClose} title="Join Filter">
      {opened ? <JoinForm value={value} onClose={onClose} onApply={onApply} /> : null}
    </LazyModal>
  );
}

function JoinForm({ value, onClose, onApply }: Omit<Props, 'opened'>) {
  const [type, setType] = useState<JoinFilterState['type']>(value?.type ?? 'team_join');
  const [window, setWindow] = useState<JoinFilterState['window']>(
    value?.window ?? { type: 'static', days: 7 },
  );
  const [picking, setPicking] = useState(false);
  return (
    <Stack>
      <Radio.Group label="Members who" value={type} onChange={(v) => setType(v as JoinFilterState['type'])}>
        <Group mt="xs">
          <Radio value="team_join" label="Workspace Join" />
          <Radio value="team_left" label="Workspace Left" />
        </Group>
      </Radio.Group>
      <Stack gap={6}>
        <Text fz="sm" fw={500}>
          Date filter
        </Text>
        <SegmentedControl
          aria-label="Date filter"
          data={['Fixed', 'Custom']}
          value={window.type === 'static' ? 'Fixed' : 'Custom'}
          onChange={(v) => (v === 'Custom' ? setPicking(true) : setWindow({ type: 'static', days: 7 }))}
        />
        {window.type === 'static' ? (
          <Select
            aria-label="Join window"
            data={TIME_FILTER_DAYS.map((d) => ({ value: String(d), label: `Last ${d} days` }))}
            value={String(window.days)}
            allowDeselect={false}
            onChange={(v) => v && setWindow({ type: 'static', days: Number(v) })}
          />
        ) : (
          <Text fz="sm">
            {window.start_date} – {window.end_date}{' '}
            <Button variant="subtle" size="compact-sm" onClick={() => setPicking(true)}>
              Change
            </Button>
          </Text>
        )}
      </Stack>
      <Group justify="space-between">
        <Button variant="subtle" color="gray" onClick={() => onApply(null)}>
          Clear
        </Button>
        <Group>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onApply({ type, window })}>Apply</Button>
        </Group>
      </Group>
      <DateRangeModal
        opened={picking}
        onCancel={() => setPicking(false)}
        onSubmit={(r) => {
          setPicking(false);
          setWindow({ type: 'dynamic', ...r });
        }}
      />
    </Stack>
  );
}
