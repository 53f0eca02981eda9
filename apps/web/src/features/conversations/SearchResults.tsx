import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  CloseButton,
  Group,
  Loader,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconExternalLink, IconWand } from '@tabler/icons-react';
import { CONVERSATION_TEXTS, SEARCH_SPINNER_MS, type SearchHit } from '@flywheel/shared/conversations';
import { errorMessage } from '../../lib/api-client.ts';
import { useSearch, type ThreadRef } from './api.ts';
import { formatWhen } from './format.ts';
import type { ThreadDetail } from './ThreadDetailModal.tsx';
import { SlackText } from '../../components/SlackText.tsx';

/**
 * Threads search-results card: a spinner for 1.5 s, then the hits or 'No results found'.
 * A hit opens its thread's details or summary. `run` counts presses of Search: each one searches afresh.
 */
export function SearchResults({
  q,
  run,
  channelId,
  onOpen,
  onSummarize,
  onClose,
}: {
  q: string;
  run: number;
  channelId: string | null;
  onOpen(t: ThreadDetail): void;
  onSummarize(t: ThreadRef): void;
  onClose(): void;
}) {
  const search = useSearch(q, channelId, run);
  const [spinning, setSpinning] = useState(true);
  useEffect(() => {
    setSpinning(true);
    const t = setTimeout(() => setSpinning(false), SEARCH_SPINNER_MS);
    return () => clearTimeout(t);
  }, [q, channelId, run]);
  const hits = search.data;

  return (
    <Card withBorder radius="md" padding="md" role="region" aria-label="Search results">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Results for “{q}”</Text>
        <CloseButton aria-label="Close search results" onClick={onClose} />
      </Group>
      {spinning || search.isPending ? (
        <Group justify="center" py="lg">
          <Loader size="sm" role="status" aria-label="Searching" />
        </Group>
      ) : search.isError ? (
        <Text c="red">{errorMessage(search.error)}</Text>
      ) : !hits || hits.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          {CONVERSATION_TEXTS.noResults}
        </Text>
      ) : (
        <Stack gap="xs" mah={360} style={{ overflowY: 'auto' }}>
          {hits.map((h) => (
            <Hit key={h.objectID} hit={h} onOpen={onOpen} onSummarize={onSummarize} />
          ))}
        </Stack>
      )}
    </Card>
  );
}

function Hit({
  hit,
  onOpen,
  onSummarize,
}: {
  hit: SearchHit;
  onOpen(t: ThreadDetail): void;
  onSummarize(t: ThreadRef): void;
}) {
  const thread = { channelId: hit.channel_id, ts: hit.thread_ts };
  return (
    <Card withBorder radius="sm" padding="sm" data-testid="search-hit">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fz="sm" fw={600}>
              {hit.user_name}
            </Text>
            <Text fz="xs" c="dimmed">
              #{hit.channel_name} · {formatWhen(hit.posted_at)}
            </Text>
            {hit.is_thread ? null : (
              <Badge size="xs" variant="light" color="gray">
                reply
              </Badge>
            )}
          </Group>
          <SlackText text={hit.content} lineClamp={3} />
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            onClick={() =>
              onOpen({
                ...thread,
                channelName: hit.channel_name,
                ...(hit.is_thread ? { sender: hit.user_name, content: hit.content } : {}),
              })
            }
            aria-label={`Open thread of ${hit.user_name}'s message`}
          >
            Open thread
          </Button>
          <Tooltip label="Summarize">
            <ActionIcon
              variant="subtle"
              aria-label="Summarize the thread"
              onClick={() => onSummarize(thread)}
            >
              <IconWand size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Open in Slack">
            <Anchor href={hit.permalink} target="_blank" rel="noreferrer" aria-label="Open in Slack">
              <IconExternalLink size={16} />
            </Anchor>
          </Tooltip>
        </Group>
      </Group>
    </Card>
  );
}
