import { useMemo } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import type { ActionLogRow } from '@flywheel/shared/members';
import { DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useMemberActions } from '../api/member-actions.ts';
import type { MemberDetailSlots } from '../slots.ts';

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

const columns = (Actions: MemberDetailSlots['MessageActions']): DataColumn<ActionLogRow>[] => [
  { id: 'time', header: 'Time', cell: (r) => actionTime(r.at), nowrap: true },
  { id: 'real_name', header: 'Real Name', cell: (r) => r.real_name },
  { id: 'channel', header: 'Channel Name', cell: (r) => `#${r.channel_name}` },
  {
    id: 'content',
    header: 'Content',
    cell: (r) => (
      <Text fz="sm" lineClamp={3}>
        {r.content}
      </Text>
    ),
  },
  {
    id: 'action',
    header: 'Action',
    cell: (r) => (
      <Group gap={6} wrap="nowrap">
        <Badge variant="light" tt="none">
          {LABEL[r.activity_type]}
        </Badge>
        {Actions && r.activity_type === 'message' ? (
          <Actions channelId={r.channel_id} ts={r.ts} channelName={r.channel_name} />
        ) : null}
      </Group>
    ),
  },
];

/**
 * Actions tab: the last 7 days of the member's messages, replies and reactions (content with mentions made
 * readable by the server's shared conversion). Message rows get the sending feature's reply button.
 */
export function MemberActions({
  memberId,
  MessageActions,
}: { memberId: string } & Pick<MemberDetailSlots, 'MessageActions'>) {
  const q = useMemberActions(memberId);
  const cols = useMemo(() => columns(MessageActions), [MessageActions]);
  return (
    <DataTable
      label="Actions"
      columns={cols}
      rows={q.data}
      rowId={(r) => `${r.activity_type}-${r.channel_id}-${r.ts}-${r.at}-${r.content.slice(0, 20)}`}
      loading={q.isPending}
      error={q.error ? errorMessage(q.error) : null}
      emptyText="No actions in the last 7 days."
      minWidth={700}
      verticalSpacing="sm"
    />
  );
}
