import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconExternalLink,
  IconListDetails,
  IconMessageReply,
  IconMoodPlus,
  IconPin,
  IconPinnedOff,
  IconWand,
} from '@tabler/icons-react';
import type { Thread } from '@flywheel/shared/conversations';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { useReact, useRefreshConversations, useTogglePin, type ThreadRef } from './api.ts';
import { formatWhen } from './format.ts';
import type { ConversationSlots } from './slots.ts';
import { SlackText } from '../../components/SlackText.tsx';

/** The reactions the add-reaction menu offers (Slack names, shown as their characters). */
export const QUICK_REACTIONS = [
  ['thumbsup', '👍'],
  ['heart', '❤️'],
  ['tada', '🎉'],
  ['eyes', '👀'],
  ['white_check_mark', '✅'],
  ['raised_hands', '🙌'],
] as const;

/**
 * A Posts card: sender, date/time, channel, content with mentions readable, replies and
 * reactions counts; send reply, open in Slack, add reaction, pin/unpin, Details, Summarize.
 */
export function PostCard({
  post,
  slots,
  onDetails,
  onSummarize,
}: {
  post: Thread;
  slots: ConversationSlots;
  onDetails(): void;
  onSummarize(t: ThreadRef): void;
}) {
  const { teamId } = useCurrentTeam();
  const pin = useTogglePin();
  const react = useReact();
  const refresh = useRefreshConversations();
  const [replying, setReplying] = useState(false);
  // The pin state shown: the server's, or what the last toggle made it (Slack's event follows).
  const [pinned, setPinned] = useState<boolean | null>(null);
  const isPinned = pinned ?? post.is_pinned;
  const ref = { team_id: teamId, channel_id: post.channel_id, ts: post.ts };
  const who = `${post.sender}'s post`;

  return (
    <Card withBorder radius="md" padding="md" data-testid="post-card">
      <Stack gap={6}>
        {/* On a phone the counts go under the sender instead of being squeezed to '0 …'. */}
        <Group justify="space-between" wrap="wrap" align="flex-start" gap="xs">
          <Group gap="xs">
            <Text fw={600} fz="sm">
              {post.sender}
            </Text>
            <Text fz="xs" c="dimmed">
              #{post.channel_name} · {formatWhen(post.posted_at)}
            </Text>
            {post.edited ? (
              <Text fz="xs" c="dimmed">
                (edited)
              </Text>
            ) : null}
            {isPinned ? (
              <Badge size="xs" variant="light" leftSection={<IconPin size={10} />}>
                Pinned
              </Badge>
            ) : null}
          </Group>
          <Group gap={6} wrap="nowrap">
            <Badge variant="light" color="blue">
              {post.replies} {post.replies === 1 ? 'reply' : 'replies'}
            </Badge>
            <Badge variant="light" color="blue">
              {post.reactions} {post.reactions === 1 ? 'reaction' : 'reactions'}
            </Badge>
          </Group>
        </Group>
        <SlackText text={post.content} lineClamp={6} />
        <Group gap={4} mt={4}>
          {slots.Reply ? (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconMessageReply size={14} />}
              onClick={() => setReplying(true)}
              aria-label={`Reply to ${who}`}
            >
              Reply
            </Button>
          ) : null}
          <Tooltip label="Open in Slack">
            <ActionIcon
              component="a"
              href={post.permalink}
              target="_blank"
              rel="noreferrer"
              variant="subtle"
              aria-label={`Open ${who} in Slack`}
            >
              <IconExternalLink size={16} />
            </ActionIcon>
          </Tooltip>
          <Menu position="bottom-start" withinPortal>
            <Menu.Target>
              <Tooltip label="Add reaction">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Add a reaction to ${who}`}
                  loading={react.isPending}
                >
                  <IconMoodPlus size={16} />
                </ActionIcon>
              </Tooltip>
            </Menu.Target>
            <Menu.Dropdown>
              <Group gap={2} p={4}>
                {QUICK_REACTIONS.map(([name, char]) => (
                  <Menu.Item
                    key={name}
                    aria-label={`React with :${name}:`}
                    onClick={() =>
                      react.mutate(
                        { ...ref, sender: 'bot', name },
                        {
                          onSuccess: (r) => notifySuccess(r.message),
                          onError: (e) => notifyFailure(errorMessage(e)),
                        },
                      )
                    }
                    px={6}
                    fz="lg"
                  >
                    {char}
                  </Menu.Item>
                ))}
              </Group>
            </Menu.Dropdown>
          </Menu>
          <Tooltip label={isPinned ? 'Unpin' : 'Pin'}>
            <ActionIcon
              variant={isPinned ? 'light' : 'subtle'}
              aria-label={`${isPinned ? 'Unpin' : 'Pin'} ${who}`}
              loading={pin.isPending}
              onClick={() =>
                pin.mutate(
                  { ...ref, pinned: isPinned },
                  {
                    onSuccess: (r) => {
                      setPinned(!isPinned);
                      notifySuccess(r.message);
                    },
                    // A failed pin is only logged.
                    onError: (e) => console.error('pin failed', e),
                  },
                )
              }
            >
              {isPinned ? <IconPinnedOff size={16} /> : <IconPin size={16} />}
            </ActionIcon>
          </Tooltip>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconListDetails size={14} />}
            onClick={onDetails}
            aria-label={`Details of ${who}`}
          >
            Details
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconWand size={14} />}
            onClick={() => onSummarize({ channelId: post.channel_id, ts: post.ts })}
            aria-label={`Summarize ${who}`}
          >
            Summarize
          </Button>
        </Group>
      </Stack>
      {slots.Reply ? (
        <slots.Reply
          opened={replying}
          onClose={() => setReplying(false)}
          channelId={post.channel_id}
          ts={post.ts}
          channelName={post.channel_name}
          onSent={() => void refresh()}
        />
      ) : null}
    </Card>
  );
}
