import { Stack, Text } from '@mantine/core';
import { RepliesList } from './RepliesList.tsx';

/** Member detail, Actions tab: what the member wrote back in their DM with the bot, each with the send it answers. */
export function MemberDmReplies({ memberId }: { memberId: string }) {
  return (
    <Stack gap="xs" mt="xl">
      <Text component="h3" fw={600} fz="md" m={0}>
        Replies to your messages
      </Text>
      <Text fz="sm" c="dimmed">
        What this member wrote back in their direct message with the bot (newest first).
      </Text>
      <RepliesList
        of={{ memberId }}
        show="send"
        label="Replies to your messages"
        emptyText="No replies from this member yet."
      />
    </Stack>
  );
}
