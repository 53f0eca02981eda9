import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Button,
  Card,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconExternalLink, IconListDetails, IconSearch, IconWand } from '@tabler/icons-react';
import type { Thread, ThreadSort } from '@flywheel/shared/conversations';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { NEWEST_THREADS, useThreads, type ThreadOrder, type ThreadRef } from './api.ts';
import { ChannelSelect } from './ChannelSelect.tsx';
import { formatWhen, windowOf, type WindowChoice } from './format.ts';
import { SearchResults } from './SearchResults.tsx';
import type { ConversationSlots } from './slots.ts';
import { SummaryModal } from './SummaryModal.tsx';
import { detailOf, ThreadDetailModal, type ThreadDetail } from './ThreadDetailModal.tsx';
import { WindowPicker } from './WindowPicker.tsx';
import { SlackText } from '../../components/SlackText.tsx';

/** Threads (default tab): search, then the threads of a channel or the workspace in a time window. */
export function ThreadsTab({ slots }: { slots: ConversationSlots }) {
  const [channel, setChannel] = useState<string | null>(null);
  const [choice, setChoice] = useState<WindowChoice>({ kind: 'days', days: 7 });
  const range = useMemo(() => windowOf(choice), [choice]);
  // The server sorts the whole window (not only the threads loaded); the table shows its order.
  const [order, setOrder] = useState<ThreadOrder>(NEWEST_THREADS);
  const threads = useThreads(range, channel, order);
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  // Each press of Search is a new search, also for the same word (new messages may have come in since).
  const [run, setRun] = useState(0);
  const [detail, setDetail] = useState<ThreadDetail | null>(null);
  const [summary, setSummary] = useState<ThreadRef | null>(null);
  const rows = useMemo(() => threads.data?.pages.flatMap((p) => p.data), [threads.data]);

  const columns: DataColumn<Thread>[] = [
    {
      id: 'time',
      header: 'Time',
      value: (t) => t.posted_at,
      cell: (t) => formatWhen(t.posted_at),
      sortable: true,
      nowrap: true,
      searchable: false,
    },
    { id: 'sender', header: 'Sender', value: (t) => t.sender, sortable: true, nowrap: true },
    { id: 'channel', header: 'Channel', value: (t) => `#${t.channel_name}`, sortable: true, nowrap: true },
    {
      id: 'content',
      header: 'Content',
      value: (t) => t.content,
      cell: (t) => <SlackText text={t.content} lineClamp={2} />,
    },
    {
      id: 'replies',
      header: 'Replies',
      value: (t) => t.replies,
      sortable: true,
      align: 'right',
      searchable: false,
    },
    {
      id: 'reactions',
      header: 'Reactions',
      value: (t) => t.reactions,
      sortable: true,
      align: 'right',
      searchable: false,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (t) => (
        <Group gap={4} wrap="nowrap">
          <Tooltip label="Details">
            <ActionIcon
              variant="subtle"
              aria-label={`Details of ${t.sender}'s thread`}
              onClick={() => setDetail(detailOf(t))}
            >
              <IconListDetails size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Summarize">
            <ActionIcon
              variant="subtle"
              aria-label={`Summarize ${t.sender}'s thread`}
              onClick={() => setSummary({ channelId: t.channel_id, ts: t.ts })}
            >
              <IconWand size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Open in Slack">
            <Anchor
              href={t.permalink}
              target="_blank"
              rel="noreferrer"
              aria-label={`Open ${t.sender}'s thread in Slack`}
            >
              <IconExternalLink size={16} />
            </Anchor>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
            <div>
              <Title order={2} fz="lg">
                Threads
              </Title>
              <Text fz="sm" c="dimmed">
                Conversations in your workspace: open one to see who replied and reacted, message them or tag
                them.
              </Text>
            </div>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                setQuery(typed.trim());
                setRun((n) => n + 1);
              }}
            >
              <Group gap="xs">
                <TextInput
                  aria-label="Search threads"
                  placeholder="Search threads by a word"
                  leftSection={<IconSearch size={16} />}
                  value={typed}
                  onChange={(e) => setTyped(e.currentTarget.value)}
                  w={280}
                />
                <Button type="submit" disabled={typed.trim() === ''}>
                  Search
                </Button>
              </Group>
            </form>
          </Group>
          {query ? (
            <SearchResults
              q={query}
              run={run}
              channelId={channel}
              onOpen={setDetail}
              onSummarize={setSummary}
              onClose={() => {
                setQuery('');
                setTyped('');
              }}
            />
          ) : null}
          <Group gap="sm" wrap="wrap">
            <ChannelSelect value={channel} onChange={setChannel} />
            <WindowPicker value={choice} onChange={setChoice} />
          </Group>
          <DataTable
            label="Threads"
            columns={columns}
            rows={rows}
            rowId={(t) => `${t.channel_id}-${t.ts}`}
            loading={threads.isPending}
            refreshing={threads.isFetching && !threads.isFetchingNextPage && !threads.isPending}
            error={threads.isError ? errorMessage(threads.error) : null}
            emptyText="No threads in this time window"
            search={{ label: 'Filter threads', placeholder: 'Filter the threads below' }}
            pageSize={10}
            sortedBy={{
              sort: { id: order.sort, desc: order.direction === 'desc' },
              onChange: (s) => setOrder({ sort: s.id as ThreadSort, direction: s.desc ? 'desc' : 'asc' }),
            }}
            minWidth={860}
          />
          {threads.hasNextPage ? (
            <Group justify="center">
              <Button
                variant="default"
                loading={threads.isFetchingNextPage}
                // The rows of the last order stay on screen until the new one's first page is in: not their pages.
                disabled={threads.isPlaceholderData}
                onClick={() => void threads.fetchNextPage()}
              >
                {order.sort === 'time' && order.direction === 'desc'
                  ? 'Load older threads'
                  : 'Load more threads'}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Card>
      <ThreadDetailModal thread={detail} onClose={() => setDetail(null)} slots={slots} />
      <SummaryModal thread={summary} onClose={() => setSummary(null)} />
    </Stack>
  );
}
