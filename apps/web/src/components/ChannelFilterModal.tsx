import { useMemo, useState } from 'react';
import { Button, Checkbox, Group, ScrollArea, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { LazyModal } from './LazyModal.tsx';
import { IconSearch } from '@tabler/icons-react';
import { useChannels } from '../entities/workspace/index.ts';

type Combiner = 'AND' | 'OR';
type Props = {
  opened: boolean;
  value: string[];
  onClose(): void;
  onApply(next: string[], combiner: Combiner): void;
  /** With a combiner the popup also asks AND (members of every channel) or OR (of any). */
  combiner?: Combiner;
};

/** Channel Filter: search, select all, a checkbox per channel (and AND/OR when `combiner` is given). */
export function ChannelFilterModal({ opened, value, onClose, onApply, combiner }: Props) {
  return (
    <LazyModal opened={opened} onClose={onClose} title="Channel Filter">
      {opened ? <ChannelForm value={value} onClose={onClose} onApply={onApply} combiner={combiner} /> : null}
    </LazyModal>
  );
}

function ChannelForm({ value, onClose, onApply, combiner }: Omit<Props, 'opened'>) {
  const channels = useChannels();
  const [type, setType] = useState<Combiner>(combiner ?? 'OR');
  const [chosen, setChosen] = useState(new Set(value));
  const [q, setQ] = useState('');
  const shown = useMemo(
    () => (channels.data ?? []).filter((c) => c.channel_name.toLowerCase().includes(q.trim().toLowerCase())),
    [channels.data, q],
  );
  const allShown = shown.length > 0 && shown.every((c) => chosen.has(c.channel_id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };
  return (
    <Stack>
      <TextInput
        aria-label="Search channels"
        placeholder="Search channels"
        leftSection={<IconSearch size={14} />}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
      />
      {combiner ? (
        <SegmentedControl
          aria-label="Channels combine with"
          data={[
            { value: 'OR', label: 'OR (any channel)' },
            { value: 'AND', label: 'AND (every channel)' },
          ]}
          value={type}
          onChange={(v) => setType(v as Combiner)}
        />
      ) : null}
      <Checkbox
        label="Select all"
        checked={allShown}
        onChange={(e) => {
          const next = new Set(chosen);
          for (const c of shown) {
            if (e.currentTarget.checked) next.add(c.channel_id);
            else next.delete(c.channel_id);
          }
          setChosen(next);
        }}
      />
      <ScrollArea.Autosize mah={260}>
        <Stack gap={6}>
          {shown.map((c) => (
            <Checkbox
              key={c.channel_id}
              label={`#${c.channel_name}`}
              checked={chosen.has(c.channel_id)}
              onChange={(e) => toggle(c.channel_id, e.currentTarget.checked)}
            />
          ))}
          {shown.length === 0 ? <Text c="dimmed">No channels</Text> : null}
        </Stack>
      </ScrollArea.Autosize>
      <Group justify="space-between">
        <Button variant="subtle" color="gray" onClick={() => onApply([], type)}>
          Clear
        </Button>
        <Group>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onApply([...chosen], type)}>Apply</Button>
        </Group>
      </Group>
    </Stack>
  );
}
