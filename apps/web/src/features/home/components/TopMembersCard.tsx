import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, ScrollArea, Table } from '@mantine/core';
import type { MemberActivity } from '@flywheel/shared/analytics';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { formatCount } from '../../../lib/chart-labels.ts';
import { DEFAULT_TIME, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useTopMembers } from '../api.ts';
import { HOME_FAILURE } from './HomeCharts.tsx';

const total = (m: MemberActivity) => m.messages + m.replies + m.reactions;

/** Members sorted by total activity, most active first. */
export const sortByTotal = (rows: readonly MemberActivity[]) =>
  [...rows].sort((a, b) => total(b) - total(a) || a.real_name.localeCompare(b.real_name));

/** 'Top Performing Members': display name, first name, messages, replies, reactions. */
export function TopMembersCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const q = useTopMembers(time);
  useErrorToast(q, HOME_FAILURE);
  const rows = useMemo(() => sortByTotal(q.data ?? []).slice(0, 10), [q.data]);
  return (
    <ChartCard
      title="Top Performing Members"
      subtitle="Most messages, replies and reactions"
      actions={
        <TimeFilterSelect label="Top Performing Members time filter" value={time} onChange={setTime} />
      }
      state={queryState(
        q,
        (d) => d.length === 0,
        () => HOME_FAILURE,
      )}
    >
      <ScrollArea>
        <Table striped highlightOnHover verticalSpacing="xs" aria-label="Top Performing Members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Display name</Table.Th>
              <Table.Th>First name</Table.Th>
              <Table.Th ta="right">Messages</Table.Th>
              <Table.Th ta="right">Replies</Table.Th>
              <Table.Th ta="right">Reactions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => (
              <Table.Tr key={m.member_id}>
                <Table.Td>
                  <Anchor component={Link} to={`/dashboard/members/${m.member_id}`} fz="sm">
                    {m.display_name || m.real_name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{m.first_name || '—'}</Table.Td>
                <Table.Td ta="right">{formatCount(m.messages)}</Table.Td>
                <Table.Td ta="right">{formatCount(m.replies)}</Table.Td>
                <Table.Td ta="right">{formatCount(m.reactions)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </ChartCard>
  );
}
