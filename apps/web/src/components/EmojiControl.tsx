import { useMemo, useState } from 'react';
import { Popover, SimpleGrid, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { IconMoodSmile } from '@tabler/icons-react';
import { SLACK_EMOJI } from '../lib/slack-emoji.ts';

/** The editor's emoji button: a searchable grid of common Slack emoji; a pick inserts it at the cursor. */
export function EmojiControl({ onPick }: { onPick(char: string): void }) {
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase().replace(/:/g, '');
    return q ? SLACK_EMOJI.filter(([name]) => name.includes(q)) : SLACK_EMOJI;
  }, [search]);

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={300} shadow="md" trapFocus>
      <Popover.Target>
        <RichTextEditor.Control
          aria-label="Insert emoji"
          title="Insert emoji"
          onClick={() => setOpened((o) => !o)}
        >
          <IconMoodSmile size={16} stroke={1.5} />
        </RichTextEditor.Control>
      </Popover.Target>
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
                    onPick(char);
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
