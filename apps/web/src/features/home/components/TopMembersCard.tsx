import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import type { MemberActivity } from '@flywheel/shared/analytics';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { countColumn, DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { DEFAULT_TIME, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useTopMembers } from '../api/get-most-active-members.ts';
import { HOME_FAILURE } from './HomeCharts.tsx';

const total = (m: MemberActivity) => m.messages + m.replies + m.reactions;

const COLUMNS: DataColumn<MemberActivity>[] = [
  {
    id: 'display_name',
    header: 'Display name',
    cell: (m) => (
      <Anchor component={Link} to={`/dashboard/members/${m.member_id}`} fz="sm">
        {m.display_name || m.real_name}
      </Anchor>
    ),
  },
  { id: 'first_name', header: 'First name', cell: (m) => m.first_name || '—' },
  countColumn('Messages', (m) => m.messages),
  countColumn('Replies', (m) => m.replies),
  countColumn('Reactions', (m) => m.reactions),
];

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
      <DataTable
        label="Top Performing Members"
        columns={COLUMNS}
        rows={rows}
        rowId={(m) => m.member_id}
        highlightOnHover
        verticalSpacing="xs"
      />
    </ChartCard>
  );
}
