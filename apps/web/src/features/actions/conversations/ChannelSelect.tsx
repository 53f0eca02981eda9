import { Select } from '@mantine/core';
import { useChannels } from '../../../lib/workspace-data.ts';

const WORKSPACE = '';

/** The channel dropdown: the workspace (default) plus each channel; 150px high (spec section 9). */
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
  return (
    <Select
      aria-label={label}
      data={data}
      value={value ?? WORKSPACE}
      onChange={(v) => onChange(v ? v : null)}
      allowDeselect={false}
      searchable
      maxDropdownHeight={150}
      w={240}
    />
  );
}
