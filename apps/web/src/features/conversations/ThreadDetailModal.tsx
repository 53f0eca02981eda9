import { useMemo, useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { cutText } from '@flywheel/shared/text';
import { LazyModal } from '../../components/LazyModal.tsx';
import { IconForms, IconMessage, IconTag } from '@tabler/icons-react';
import type { ReactionRow, ReplyRow, Thread } from '@flywheel/shared/conversations';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { SendFormModal } from '../../components/SendFormModal.tsx';
import { useReactions, useReplies, type ThreadRef } from './api.ts';
import { formatWhen } from './format.ts';
import type { ConversationSlots } from './slots.ts';
import { SlackText } from '../../components/SlackText.tsx';
import { ActGate } from '../../components/ActGate.tsx';

export type ThreadDetail = ThreadRef & { channelName: string; sender?: string; content?: string };

export const detailOf = (t: Thread): ThreadDetail => ({
  channelId: t.channel_id,
  ts: t.ts,
  channelName: t.channel_name,
  sender: t.sender,
  content: t.content,
});

/**
 * Thread detail popup: Replies and Reactions tabs with their counts, searchable paginated
 * tables with row selection, and Add Tag / Send DM / Send Form for the selected people.
 */
export function ThreadDetailModal({
  thread,
  onClose,
  slots,
}: {
  thread: ThreadDetail | null;
  onClose(): void;
  slots: ConversationSlots;
}) {
  return (
    <LazyModal opened={thread !== null} onClose={onClose} title="Thread details" size="xl">
      {thread ? <Detail thread={thread} slots={slots} /> : null}
    </LazyModal>
  );
}

function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700} data-testid={label}>
        {value ?? '–'}
      </Text>
    </Paper>
  );
}

const replyColumns: DataColumn<ReplyRow>[] = [
  { id: 'name', header: 'Name', value: (r) => r.name, sortable: true, nowrap: true },
  {
    id: 'reply',
    header: 'Reply',
    value: (r) => r.reply,
    cell: (r) => <SlackText text={r.reply} />,
  },
  {
    id: 'at',
    header: 'Time',
    value: (r) => r.posted_at,
    cell: (r) => formatWhen(r.posted_at),
    sortable: true,
    nowrap: true,
  },
];
const reactionColumns: DataColumn<ReactionRow>[] = [
  { id: 'name', header: 'Name', value: (r) => r.name, sortable: true, nowrap: true },
  {
    id: 'reaction',
    header: 'Reaction',
    value: (r) => `:${r.reaction}:`,
    cell: (r) => <SlackText text={`:${r.reaction}:`} />,
    sortable: true,
  },
];

function Detail({ thread, slots }: { thread: ThreadDetail; slots: ConversationSlots }) {
  const replies = useReplies(thread);
  const reactions = useReactions(thread);
  const [tab, setTab] = useState<string | null>('replies');
  const [selectedReplies, setSelectedReplies] = useState<Set<string>>(new Set());
  const [selectedReactions, setSelectedReactions] = useState<Set<string>>(new Set());
  const [acting, setActing] = useState<'dm' | 'tag' | 'form' | null>(null);
  const clearSelection = () => {
    setSelectedReplies(new Set());
    setSelectedReactions(new Set());
  };

  // The selected rows' people, once each (a row is a reply or a reaction; bots without a member id left out).
  const people = useMemo(() => {
    const ids = new Set<string>();
    if (tab === 'replies')
      for (const r of replies.data?.replies ?? [])
        if (selectedReplies.has(r.ts) && r.user_id) ids.add(r.user_id);
    if (tab === 'reactions')
      for (const r of reactions.data?.reactions ?? [])
        if (selectedReactions.has(`${r.user_id}:${r.reaction}`)) ids.add(r.user_id);
    return [...ids];
  }, [tab, replies.data, reactions.data, selectedReplies, selectedReactions]);

  const actions = (
    <ActGate>
      {(disabled) => (
        <Group gap="xs">
          {slots.AddTag ? (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconTag size={14} />}
              disabled={disabled || people.length === 0}
              onClick={() => setActing('tag')}
            >
              Add Tag
            </Button>
          ) : null}
          {slots.SendDm ? (
            <Button
              size="xs"
              leftSection={<IconMessage size={14} />}
              disabled={disabled || people.length === 0}
              onClick={() => setActing('dm')}
            >
              Send DM
            </Button>
          ) : null}
          <Button
            size="xs"
            variant="light"
            leftSection={<IconForms size={14} />}
            disabled={disabled || people.length === 0}
            onClick={() => setActing('form')}
          >
            Send Form
          </Button>
        </Group>
      )}
    </ActGate>
  );

  return (
    <Stack gap="md">
      {thread.content ? (
        <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-gray-0)">
          <Text fz="xs" c="dimmed">
            {thread.sender} in #{thread.channelName}
          </Text>
          <SlackText text={thread.content} lineClamp={4} />
        </Paper>
      ) : null}
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="replies">Replies</Tabs.Tab>
          <Tabs.Tab value="reactions">Reactions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="replies" pt="md">
          <Stack gap="sm">
            <SimpleGrid cols={2}>
              <Stat label="# of replies" value={replies.data?.total_replies} />
              <Stat label="# of unique people replies" value={replies.data?.unique_replies} />
            </SimpleGrid>
            <DataTable
              label="Replies"
              columns={replyColumns}
              rows={replies.data?.replies}
              rowId={(r) => r.ts}
              loading={replies.isPending}
              error={replies.isError ? errorMessage(replies.error) : null}
              emptyText="No replies in this thread"
              search={{ label: 'Search replies', placeholder: 'Search replies' }}
              toolbar={actions}
              pageSize={5}
              selection={{
                selected: selectedReplies,
                onChange: setSelectedReplies,
                rowLabel: (r) => `${r.name}: ${cutText(r.reply, 40)}`,
              }}
              defaultSort={{ id: 'at', desc: false }}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="reactions" pt="md">
          <Stack gap="sm">
            <SimpleGrid cols={2}>
              <Stat label="# of reaction" value={reactions.data?.total_reactions} />
              <Stat label="# of unique people reaction" value={reactions.data?.unique_reactions} />
            </SimpleGrid>
            <DataTable
              label="Reactions"
              columns={reactionColumns}
              rows={reactions.data?.reactions}
              rowId={(r) => `${r.user_id}:${r.reaction}`}
              loading={reactions.isPending}
              error={reactions.isError ? errorMessage(reactions.error) : null}
              emptyText="No reactions on this thread"
              search={{ label: 'Search reactions', placeholder: 'Search reactions' }}
              toolbar={actions}
              pageSize={5}
              selection={{
                selected: selectedReactions,
                onChange: setSelectedReactions,
                rowLabel: (r) => `${r.name} :${r.reaction}:`,
              }}
            />
          </Stack>
        </Tabs.Panel>
      </Tabs>
      {slots.SendDm ? (
        <slots.SendDm opened={acting === 'dm'} onClose={() => setActing(null)} memberIds={people} />
      ) : null}
      {slots.AddTag ? (
        <slots.AddTag opened={acting === 'tag'} onClose={() => setActing(null)} memberIds={people} />
      ) : null}
      <SendFormModal
        opened={acting === 'form'}
        onClose={() => setActing(null)}
        memberIds={people}
        onSent={clearSelection}
      />
    </Stack>
  );
}
