import { ActionIcon, Button, Group, Input, Stack, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { POLL_OPTION_MAX, type PollVoting } from '@flywheel/shared/polls';
import { EmojiButton } from '../../components/EmojiPicker.tsx';
import { EMPTY_OPTION, maxOptionsOf, type OptionDraft } from './draft.ts';

/**
 * The option editor: each option an emoji and a value; the first option cannot be deleted,
 * and adding stops at five (emoji polls) or ten (button polls, where the emoji is optional).
 */
export function OptionsEditor({
  options,
  onChange,
  error,
  disabled,
  voting = 'emoji',
}: {
  options: OptionDraft[];
  onChange(next: OptionDraft[]): void;
  error: string | null;
  disabled?: boolean;
  voting?: PollVoting;
}) {
  const set = (i: number, patch: Partial<OptionDraft>) =>
    onChange(options.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  const max = maxOptionsOf(voting);
  const full = options.length >= max;
  return (
    <Input.Wrapper
      label="Options"
      description={
        voting === 'buttons'
          ? `Up to ${max}; members vote by pressing the option's button (an emoji is optional)`
          : `Up to ${max}; members vote by reacting with the option's emoji`
      }
      error={error}
      labelElement="div"
    >
      <Stack gap="xs" mt={6} role="list" aria-label="Poll options">
        {options.map((o, i) => (
          <Group key={i} gap="xs" wrap="nowrap" role="listitem">
            <EmojiButton
              label={
                o.emoji_code
                  ? `Option ${i + 1} emoji :${o.emoji_code}:`
                  : `Choose an emoji for option ${i + 1}`
              }
              value={o.emoji}
              onPick={(emoji, emoji_code) => set(i, { emoji, emoji_code })}
              error={Boolean(error) && voting === 'emoji' && !o.emoji}
              disabled={disabled}
            />
            <TextInput
              aria-label={`Option ${i + 1}`}
              placeholder={`Option ${i + 1}`}
              value={o.value}
              maxLength={POLL_OPTION_MAX}
              onChange={(e) => set(i, { value: e.currentTarget.value })}
              error={Boolean(error) && !o.value.trim()}
              disabled={disabled}
              style={{ flex: 1 }}
            />
            <Tooltip
              label={i === 0 ? 'The first option cannot be deleted' : `Delete option ${i + 1}`}
              withArrow
            >
              <span style={{ display: 'inline-block' }} tabIndex={i === 0 ? 0 : -1}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size={36}
                  aria-label={`Delete option ${i + 1}`}
                  disabled={i === 0 || disabled}
                  onClick={() => onChange(options.filter((_, j) => j !== i))}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </span>
            </Tooltip>
          </Group>
        ))}
      </Stack>
      <Button
        variant="light"
        size="xs"
        mt="xs"
        leftSection={<IconPlus size={14} />}
        disabled={full || disabled}
        onClick={() => onChange([...options, EMPTY_OPTION])}
      >
        {full ? `${max} options at most` : 'Add option'}
      </Button>
    </Input.Wrapper>
  );
}
