import { Button, Select } from '@mantine/core';
import { IconChartLine, IconDownload, IconTable } from '@tabler/icons-react';
import { useChannels } from '../../../entities/workspace/index.ts';
import { Segmented } from '../../../components/segmented/Segmented.tsx';

export const WORKSPACE = '__workspace__';

/** Whole workspace or one channel. */
export function ChannelScopeSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
}) {
  const channels = useChannels();
  return (
    <Select
      aria-label={label}
      data={[
        { value: WORKSPACE, label: 'Whole workspace' },
        ...(channels.data ?? []).map((c) => ({ value: c.channel_id, label: `#${c.channel_name}` })),
      ]}
      value={value}
      onChange={(v) => onChange(v ?? WORKSPACE)}
      allowDeselect={false}
      searchable
      maxDropdownHeight={150}
      w={190}
    />
  );
}

export const scopeChannels = (scope: string): string[] => (scope === WORKSPACE ? [] : [scope]);

export type View = 'graph' | 'table';

export function ViewToggle({
  label,
  value,
  onChange,
}: {
  label: string;
  value: View;
  onChange(v: View): void;
}) {
  return (
    <Segmented
      aria-label={label}
      size="xs"
      value={value}
      onChange={(v) => onChange(v as View)}
      data={[
        { value: 'graph', label: <IconChartLine size={16} aria-label="Graph" /> },
        { value: 'table', label: <IconTable size={16} aria-label="Table" /> },
      ]}
    />
  );
}

export function DownloadButton({
  label,
  disabled,
  loading,
  onClick,
}: {
  label: string;
  disabled: boolean;
  /** The rows are being fetched (the button shows a loader and cannot be clicked again). */
  loading?: boolean;
  onClick(): void;
}) {
  return (
    <Button
      variant="default"
      size="sm"
      leftSection={<IconDownload size={16} />}
      aria-label={label}
      disabled={disabled}
      loading={loading}
      onClick={onClick}
    >
      CSV
    </Button>
  );
}
