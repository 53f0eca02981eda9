import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconCheck,
  IconExternalLink,
  IconMessageReply,
  IconSearch,
  IconThumbUp,
  IconWand,
} from '@tabler/icons-react';
import { CONVERSATION_TEXTS, type Mention } from '@flywheel/shared/conversations';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { useMentions, useReact, useRefreshConversations, type ThreadRef } from './api.ts';
import { formatWhen } from './format.ts';
import type { ConversationSlots } from './slots.ts';
import { SummaryModal } from './SummaryModal.tsx';
import { SlackText } from '../../components/SlackText.tsx';

/**
 * Mentions panel: messages and threads that mention the workspace's admins or the bot, with
 * 'Search thread', user and channel filters and 'Clear Filters'. A reply or reaction marks a mention 'Seen'.
 */
export function MentionsTab({ slots }: { slots: ConversationSlots }) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [userId, setUserId] = useState<string | null>(null);
  const [channelId, setChannelId] = useState<string | null>(null);
  const [summary, setSummary] = useState<ThreadRef | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), 400);
    return () => clearTimeout(t);
  }, [typed]);
  const mentions = useMentions({ q, userId, channelId });
  const first = mentions.data?.pages[0];
  const rows = mentions.data?.pages.flatMap((p) => p.data) ?? [];
  const filtered = typed !== '' || userId !== null || channelId !== null;

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg">
            Mentions
          </Title>
          <Text fz="sm" c="dimmed">
            Messages that mention your admins or your bot. Reply or react and they show as Seen.
          </Text>
        </div>
        <Group gap="sm" wrap="wrap">
          <TextInput
            aria-label={CONVERSATION_TEXTS.searchThread}
            placeholder={CONVERSATION_TEXTS.searchThread}
            leftSection={<IconSearch size={16} />}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            w={240}
          />
          <Select
            aria-label="User name"
            placeholder="User name"
            data={first?.users ?? []}
            value={userId}
            onChange={setUserId}
            searchable
            clearable
            maxDropdownHeight={150}
            w={200}
          />
          <Select
            aria-label="Channel name"
            placeholder="Channel name"
            data={(first?.channels ?? []).map((c) => ({ ...c, label: `#${c.label}` }))}
            value={channelId}
            onChange={setChannelId}
            searchable
            clearable
            maxDropdownHeight={150}
            w={200}
          />
          <Button
            variant="default"
            disabled={!filtered}
            onClick={() => {
              setTyped('');
              setQ('');
              setUserId(null);
              setChannelId(null);
            }}
          >
            {CONVERSATION_TEXTS.clearFilters}
          </Button>
        </Group>
        {mentions.isPending ? (
          <Center py="xl">
            <Loader role="status" aria-label="Loading mentions" />
          </Center>
        ) : mentions.isError ? (
          <Alert color="red" title="Mentions could not be loaded">
            {errorMessage(mentions.error)}
          </Alert>
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            {filtered ? CONVERSATION_TEXTS.noResults : 'Nobody has mentioned your admins or your bot yet'}
          </Text>
        ) : (
          <Stack gap="sm">
            {rows.map((m) => (
              <MentionCard key={m.mention_id} mention={m} slots={slots} onSummarize={setSummary} />
            ))}
            {mentions.hasNextPage ? (
              <Group justify="center">
                <Button
                  variant="default"
                  loading={mentions.isFetchingNextPage}
                  onClick={() => void mentions.fetchNextPage()}
                >
                  Load older mentions
                </Button>
              </Group>
            ) : null}
          </Stack>
        )}
      </Stack>
      <SummaryModal thread={summary} onClose={() => setSummary(null)} />
    </Card>
  );
}

function MentionCard({
  mention: m,
  slots,
  onSummarize,
}: {
  mention: Mention;
  slots: ConversationSlots;
  onSummarize(t: ThreadRef): void;
}) {
  const { teamId } = useCurrentTeam();
  const react = useReact();
  const refresh = useRefreshConversations();
  const [replying, setReplying] = useState(false);
  // Seen at once after a reply or reaction here; the list reads it from the server after.
  const [seen, setSeen] = useState(false);
  const isSeen = seen || m.seen;
  const who = `${m.user_name}'s mention`;
  return (
    <Card withBorder radius="md" padding="md" data-testid="mention-card">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} fz="sm">
              {m.user_name}
            </Text>
            <Text fz="xs" c="dimmed">
              #{m.channel_name} · {formatWhen(m.posted_at)}
            </Text>
            {m.is_thread ? null : (
              <Badge size="xs" variant="light" color="gray">
                in a thread
              </Badge>
            )}
          </Group>
          <SlackText text={m.content} />
        </Stack>
        <Group gap={4} wrap="nowrap">
          {isSeen ? (
            <Badge color="blue" variant="light" leftSection={<IconCheck size={12} />}>
              {CONVERSATION_TEXTS.seen}
            </Badge>
          ) : (
            <>
              {slots.Reply ? (
                <Tooltip label="Reply">
                  <ActionIcon
                    variant="light"
                    aria-label={`Reply to ${who}`}
                    onClick={() => setReplying(true)}
                  >
                    <IconMessageReply size={16} />
                  </ActionIcon>
                </Tooltip>
              ) : null}
              <Tooltip label="React with :thumbsup:">
                <ActionIcon
                  variant="subtle"
                  aria-label={`React to ${who}`}
                  loading={react.isPending}
                  onClick={() =>
                    react.mutate(
                      {
                        team_id: teamId,
                        channel_id: m.channel_id,
                        ts: m.ts,
                        name: 'thumbsup',
                        sender: 'bot',
                        mention_id: m.mention_id,
                      },
                      {
                        onSuccess: (r) => {
                          setSeen(true);
                          notifySuccess(r.message);
                        },
                        onError: (e) => notifyFailure(errorMessage(e)),
                      },
                    )
                  }
                >
                  <IconThumbUp size={16} />
                </ActionIcon>
              </Tooltip>
            </>
          )}
          <Tooltip label="Open in Slack">
            <Anchor
              href={m.permalink}
              target="_blank"
              rel="noreferrer"
              aria-label={`Open ${who} in Slack`}
              px={4}
            >
              <IconExternalLink size={16} />
            </Anchor>
          </Tooltip>
          <Tooltip label="Summarize the thread">
            <ActionIcon
              variant="subtle"
              aria-label={`Summarize the thread of ${who}`}
              onClick={() => onSummarize({ channelId: m.channel_id, ts: m.thread_ts })}
            >
              <IconWand size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {slots.Reply ? (
        <slots.Reply
          opened={replying}
          onClose={() => setReplying(false)}
          channelId={m.channel_id}
          ts={m.ts}
          channelName={m.channel_name}
          mentionId={m.mention_id}
          onSent={() => {
            setSeen(true);
            void refresh();
          }}
        />
      ) : null}
    </Card>
  );
}
