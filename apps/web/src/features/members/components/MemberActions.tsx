import { Badge, Center, Loader, Table, Text } from '@mantine/core';
import type { ActionLogRow } from '@flywheel/shared/members';
import { errorMessage } from '../../../lib/api-client.ts';
import { useMemberActions } from '../api.ts';

const LABEL: Record<ActionLogRow['activity_type'], string> = {
  message: 'Message',
  reply: 'Reply',
  reaction: 'Reaction',
};

export const actionTime = (at: number) =>
  new Date(at).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/**
 * Actions tab: the last 7 days of the member's messages, replies and reactions (content with mentions made
 * readable by the server's shared conversion). The reply button comes with the messaging issue.
 */
export function MemberActions({ memberId }: { memberId: string }) {
  const q = useMemberActions(memberId);
  if (q.isPending)
    return (
      <Center py="xl">
        <Loader aria-label="Loading actions" />
      </Center>
    );
  if (q.error) return <Text c="red">{errorMessage(q.error)}</Text>;
  if (q.data.length === 0) return <Text c="dimmed">No actions in the last 7 days.</Text>;
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table striped aria-label="Actions" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Real Name</Table.Th>
            <Table.Th>Channel Name</Table.Th>
            <Table.Th>Content</Table.Th>
            <Table.Th>Action</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {q.data.map((r) => (
            <Table.Tr key={`${r.activity_type}-${r.channel_id}-${r.ts}-${r.at}-${r.content.slice(0, 20)}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{actionTime(r.at)}</Table.Td>
              <Table.Td>{r.real_name}</Table.Td>
              <Table.Td>#{r.channel_name}</Table.Td>
              <Table.Td>
                <Text fz="sm" lineClamp={3}>
                  {r.content}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="light" tt="none">
                  {LABEL[r.activity_type]}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
