import { useMemo, useState } from 'react';
import { Badge, Group } from '@mantine/core';
import { IconMessage, IconMessageReply, IconMoodSmile } from '@tabler/icons-react';
import type { ActionLogRow } from '@flywheel/shared/members';
import { cutText } from '@flywheel/shared/text';
import { DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { SlackText } from '../../../components/SlackText.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useMemberActions } from '../api/member-actions.ts';
import type { MemberDetailSlots } from '../slots.ts';

/** Each kind of action with its own word, icon and colour (Reaction and Reply never look alike). */
export const ACTION_KINDS: Record<
  ActionLogRow['activity_type'],
  { label: string; color: string; Icon: typeof IconMessage }
> = {
  message: { label: 'Message', color: 'blue', Icon: IconMessage },
  reply: { label: 'Reply', color: 'teal', Icon: IconMessageReply },
  reaction: { label: 'Reaction', color: 'orange', Icon: IconMoodSmile },
};

export function ActionBadge({ kind }: { kind: ActionLogRow['activity_type'] }) {
  const { label, color, Icon } = ACTION_KINDS[kind];
  return (
    <Badge
      variant="light"
      color={color}
      tt="none"
      leftSection={<Icon size={12} aria-hidden />}
      style={{ flex: 'none', overflow: 'visible' }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {label}
    </Badge>
  );
}

const PAGE_SIZES = [10, 25, 50] as const;

const columns = (Actions: MemberDetailSlots['MessageActions']): DataColumn<ActionLogRow>[] => [
  {
    id: 'time',
    header: 'Time',
    value: (r) => r.at,
    cell: (r) => formatDateTime(r.at),
    sortable: true,
    searchable: false,
    nowrap: true,
  },
  { id: 'real_name', header: 'Real Name', value: (r) => r.real_name },
  {
    id: 'channel',
    header: 'Channel Name',
    value: (r) => `#${r.channel_name}`,
    sortable: true,
    nowrap: true,
  },
  {
    id: 'content',
    header: 'Content',
    // The widest column: what was said is what people read here (it kept ~110 px beside the others).
    width: 320,
    minWidth: 280,
    value: (r) => r.content,
    cell: (r) => <SlackText text={r.content} lineClamp={3} />,
  },
  {
    id: 'action',
    header: 'Action',
    value: (r) => ACTION_KINDS[r.activity_type].label,
    nowrap: true,
    cell: (r) => (
      <Group gap={6} wrap="nowrap">
        <ActionBadge kind={r.activity_type} />
        {Actions && r.activity_type === 'message' ? (
          <Actions channelId={r.channel_id} ts={r.ts} channelName={r.channel_name} pinned={r.is_pinned} />
        ) : null}
      </Group>
    ),
  },
];

/**
 * Actions tab: the last 7 days of the member's messages, replies and reactions, newest first and paged
 * (content read by the shared SlackText; mentions already made readable by the server). Message rows get
 * the sending feature's reply button.
 */
export function MemberActions({
  memberId,
  MessageActions,
}: { memberId: string } & Pick<MemberDetailSlots, 'MessageActions'>) {
  const q = useMemberActions(memberId);
  const cols = useMemo(() => columns(MessageActions), [MessageActions]);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  return (
    <DataTable
      label="Actions"
      columns={cols}
      rows={q.data}
      rowId={(r) => `${r.activity_type}-${r.channel_id}-${r.ts}-${r.at}-${cutText(r.content, 20)}`}
      loading={q.isPending}
      error={q.error ? errorMessage(q.error) : null}
      emptyText="No actions in the last 7 days."
      search={{ label: 'Search actions', placeholder: 'Search content or channel', width: 260 }}
      countLabel={(n) => `${n} action${n === 1 ? '' : 's'} in the last 7 days`}
      defaultSort={{ id: 'time', desc: true }}
      pageSize={pageSize}
      pageSizes={PAGE_SIZES}
      onPageSizeChange={setPageSize}
      minWidth={700}
      verticalSpacing="sm"
    />
  );
}
