import { Alert, Anchor, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconMessageReply, IconPaperclip } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { DmReply } from '@flywheel/shared/delivery';
import { SlackText } from '../../../components/SlackText.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useReplies } from '../api/get-replies.ts';

/**
 * Replies members wrote in their DM with the bot, newest first, as text (never HTML). `show` says what each card
 * names besides the text: the member (a receipt's list) or the send it answers (a member's list).
 */
export function RepliesList(props: {
  of: { receiptId: number } | { memberId: string };
  show: 'member' | 'send';
  emptyText: string;
  label: string;
}) {
  const q = useReplies(props.of);
  if (q.isPending)
    return (
      <Center py="lg">
        <Loader size="sm" aria-label="Loading replies" />
      </Center>
    );
  if (q.error)
    return (
      <Alert color="red" variant="light" title="Could not load the replies">
        {errorMessage(q.error)}
      </Alert>
    );
  if (q.data.length === 0)
    return (
      <Text c="dimmed" fz="sm" py="md">
        {props.emptyText}
      </Text>
    );
  return (
    <Stack
      gap="sm"
      component="ul"
      aria-label={props.label}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {q.data.map((r) => (
        <Reply key={r.id} reply={r} show={props.show} />
      ))}
    </Stack>
  );
}

function Reply({ reply: r, show }: { reply: DmReply; show: 'member' | 'send' }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={`Reply from ${r.member_name}`}>
      <Group justify="space-between" gap="xs" mb={4} wrap="nowrap" align="flex-start">
        {show === 'member' ? (
          <Anchor
            component={Link}
            to={`/dashboard/members/${encodeURIComponent(r.member_id)}`}
            fw={600}
            fz="sm"
          >
            {r.member_name}
          </Anchor>
        ) : (
          <Text fz="sm" fw={600} lineClamp={1} title={r.receipt_description ?? undefined}>
            {r.receipt_id === null
              ? 'Wrote first (answers no message)'
              : `Re: ${r.action_type ?? 'Message'}, ${r.receipt_description ?? ''}`}
          </Text>
        )}
        <Text fz="xs" c="dimmed" style={{ flex: 'none' }}>
          {formatDateTime(r.sent_at)}
        </Text>
      </Group>
      <SlackText text={r.text} />
      {r.in_thread || r.edited || r.files > 0 ? (
        <Group gap="md" mt={6}>
          {r.in_thread ? (
            <Group gap={4} wrap="nowrap">
              <IconMessageReply size={12} aria-hidden color="var(--mantine-color-gray-7)" />
              <Text fz="xs" c="gray.7">
                in the thread
              </Text>
            </Group>
          ) : null}
          {r.edited ? (
            <Text fz="xs" c="gray.7">
              edited
            </Text>
          ) : null}
          {r.files > 0 ? (
            <Group gap={4} wrap="nowrap">
              <IconPaperclip size={12} aria-hidden color="var(--mantine-color-gray-7)" />
              <Text fz="xs" c="gray.7">
                {r.files} file{r.files === 1 ? '' : 's'} (in Slack)
              </Text>
            </Group>
          ) : null}
        </Group>
      ) : null}
    </Paper>
  );
}
