import { useMemo, useState } from 'react';
import { Alert, Button, Card, Center, Group, Loader, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { errorMessage } from '../../lib/api-client.ts';
import { useThreads, type ThreadRef } from './api.ts';
import { ChannelSelect } from './ChannelSelect.tsx';
import { windowOf, type WindowChoice } from './format.ts';
import { PostCard } from './PostCard.tsx';
import type { ConversationSlots } from './slots.ts';
import { SummaryModal } from './SummaryModal.tsx';
import { detailOf, ThreadDetailModal, type ThreadDetail } from './ThreadDetailModal.tsx';
import { WindowPicker } from './WindowPicker.tsx';

/** Posts: a channel dropdown, a time filter and the posts as cards in an 85vh list. */
export function PostsTab({ slots }: { slots: ConversationSlots }) {
  const [channel, setChannel] = useState<string | null>(null);
  const [choice, setChoice] = useState<WindowChoice>({ kind: 'days', days: 7 });
  const range = useMemo(() => windowOf(choice), [choice]);
  const posts = useThreads(range, channel);
  const [detail, setDetail] = useState<ThreadDetail | null>(null);
  const [summary, setSummary] = useState<ThreadRef | null>(null);
  const rows = posts.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg">
            Posts
          </Title>
          <Text fz="sm" c="dimmed">
            Recent posts by channel: reply, react, pin or summarize without leaving Flywheel.
          </Text>
        </div>
        <Group gap="sm" wrap="wrap">
          <ChannelSelect value={channel} onChange={setChannel} />
          <WindowPicker value={choice} onChange={setChoice} />
        </Group>
        <ScrollArea.Autosize mah="85vh" type="auto" aria-label="Posts">
          {posts.isPending ? (
            <Center py="xl">
              <Loader role="status" aria-label="Loading posts" />
            </Center>
          ) : posts.isError ? (
            <Alert color="red" title="Posts could not be loaded">
              {errorMessage(posts.error)}
            </Alert>
          ) : rows.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              No posts in this time window
            </Text>
          ) : (
            <Stack gap="sm" pr="xs">
              {rows.map((p) => (
                <PostCard
                  key={`${p.channel_id}-${p.ts}`}
                  post={p}
                  slots={slots}
                  onDetails={() => setDetail(detailOf(p))}
                  onSummarize={setSummary}
                />
              ))}
              {posts.hasNextPage ? (
                <Group justify="center">
                  <Button
                    variant="default"
                    loading={posts.isFetchingNextPage}
                    onClick={() => void posts.fetchNextPage()}
                  >
                    Load older posts
                  </Button>
                </Group>
              ) : null}
            </Stack>
          )}
        </ScrollArea.Autosize>
      </Stack>
      <ThreadDetailModal thread={detail} onClose={() => setDetail(null)} slots={slots} />
      <SummaryModal thread={summary} onClose={() => setSummary(null)} />
    </Card>
  );
}
