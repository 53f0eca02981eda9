import { Select } from '@mantine/core';
import { useChannels } from '../../entities/workspace/index.ts';

const WORKSPACE = '';

/** The channel dropdown: the workspace (default) plus each channel; 150px high. */
export function ChannelSelect({
  value,
  onChange,
  label = 'Channel',
}: {
  value: string | null;
  onChange(channelId: string | null): void;
  label?: string;
}) {
  const channels = useChannels();
  const data = [
    { value: WORKSPACE, label: 'Workspace (all channels)' },
    ...(channels.data ?? [])
      .map((c) => ({ value: c.channel_id, label: `#${c.channel_name}` }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
  const selected = data.find((d) => d.value === (value ?? WORKSPACE));
  return (
    <Select
      aria-label={label}
      // The control is wide enough for 'Workspace (all channels)'; a long channel name shows whole on hover.
      title={selected?.label}
      data={data}
      value={value ?? WORKSPACE}
      onChange={(v) => onChange(v ? v : null)}
      allowDeselect={false}
      searchable
      maxDropdownHeight={150}
      w={290}
    />
  );
}
