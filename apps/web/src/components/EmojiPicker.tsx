import { useMemo, useState, type ReactNode } from 'react';
import { ActionIcon, Popover, SimpleGrid, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconMoodSmile } from '@tabler/icons-react';
import { SLACK_EMOJI } from '../lib/slack-emoji.ts';

/** A pick: the emoji as a character and its Slack name. */
export type EmojiPick = (char: string, name: string) => void;

/** The searchable grid of common Slack emoji inside a popover; a pick closes it. */
export function EmojiPopover({
  target,
  onPick,
}: {
  target(toggle: () => void): ReactNode;
  onPick: EmojiPick;
}) {
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase().replace(/:/g, '');
    return q ? SLACK_EMOJI.filter(([name]) => name.includes(q)) : SLACK_EMOJI;
  }, [search]);

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={300} shadow="md" trapFocus>
      <Popover.Target>{target(() => setOpened((o) => !o))}</Popover.Target>
      <Popover.Dropdown>
        <TextInput
          aria-label="Search emoji"
          placeholder="Search emoji"
          size="xs"
          mb="xs"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        {shown.length === 0 ? (
          <Text fz="sm" c="dimmed">
            No emoji found
          </Text>
        ) : (
          <SimpleGrid cols={8} spacing={2} verticalSpacing={2} mah={220} style={{ overflowY: 'auto' }}>
            {shown.map(([name, char]) => (
              <Tooltip key={name} label={`:${name}:`} openDelay={400}>
                <UnstyledButton
                  aria-label={`:${name}:`}
                  fz={20}
                  ta="center"
                  onClick={() => {
                    onPick(char, name);
                    setOpened(false);
                    setSearch('');
                  }}
                >
                  {char}
                </UnstyledButton>
              </Tooltip>
            ))}
          </SimpleGrid>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

/** A button showing the chosen emoji (or a smiley) that opens the same grid: a poll option's emoji. */
export function EmojiButton({
  value,
  onPick,
  label,
  error,
  disabled,
}: {
  value: string;
  onPick: EmojiPick;
  label: string;
  error?: boolean;
  disabled?: boolean;
}) {
  return (
    <EmojiPopover
      onPick={onPick}
      target={(toggle) => (
        <ActionIcon
          variant="default"
          size={36}
          aria-label={label}
          onClick={toggle}
          disabled={disabled}
          style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
        >
          {value ? <span style={{ fontSize: 20 }}>{value}</span> : <IconMoodSmile size={18} stroke={1.5} />}
        </ActionIcon>
      )}
    />
  );
}
