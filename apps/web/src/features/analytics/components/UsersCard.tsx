import { useMemo, useState } from 'react';
import type { MembersChangeRow } from '@flywheel/shared/analytics';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { SeriesView } from '../../../components/SeriesView.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { dateLabel } from '../../../lib/chart-labels.ts';
import { toCsv } from '@flywheel/shared/csv';
import { downloadCsv } from '../../../lib/csv.ts';
import { DEFAULT_TIME, spanDays, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useMembersChange } from '../api/members-change-analytics.ts';
import { DownloadButton, ViewToggle, type View } from './controls.tsx';

export const USERS_CSV_HEADERS = [
  'Date',
  'Members Joined',
  'Members Left',
  'Active Members',
  'Overall Members',
];
const SERIES = [
  { name: 'new_members', label: 'Joined', color: 'teal.6' },
  { name: 'dropped_members', label: 'Left', color: 'red.6' },
  { name: 'active_members', label: 'Active', color: 'indigo.6' },
  { name: 'overall_members', label: 'Overall', color: 'gray.6' },
];

/**
 * Joins and leaves are a few a day, the member count hundreds: active and overall members are drawn against
 * their own (right) axis, so the daily joins and leaves are not flattened at 0.
 */
export const USERS_AXES = {
  series: ['active_members', 'overall_members'],
  label: 'Members',
  leftLabel: 'Joined / left',
};

const isEmpty = (rows: MembersChangeRow[]) =>
  rows.every((r) => r.new_members + r.dropped_members + r.active_members + r.overall_members === 0);

/** Users: members joined, left, active and overall per day; own time filter, graph/table, CSV. */
export function UsersCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const [view, setView] = useState<View>('graph');
  const request = useMemo(() => ({ time, channels: [] }), [time]);
  const q = useMembersChange(request);
  useErrorToast(q);
  const rows = useMemo(
    () =>
      [...(q.data ?? [])]
        .sort((a, b) => a.date_of_data.localeCompare(b.date_of_data))
        .map((r) => ({
          ...r,
          day: r.date_of_data.slice(0, 10),
          date: dateLabel(r.date_of_data, spanDays(time)),
        })),
    [q.data, time],
  );
  const download = () =>
    downloadCsv(
      'Users',
      toCsv(
        USERS_CSV_HEADERS,
        rows.map((r) => [r.day, r.new_members, r.dropped_members, r.active_members, r.overall_members]),
      ),
    );
  return (
    <ChartCard
      title="Users"
      subtitle="Members joined, left, active and overall"
      actions={
        <>
          <TimeFilterSelect label="Users time filter" value={time} onChange={setTime} />
          <ViewToggle label="Users view" value={view} onChange={setView} />
          <DownloadButton label="Download Users CSV" disabled={!rows.length} onClick={download} />
        </>
      }
      state={queryState(q, isEmpty, errorMessage)}
      minHeight={280}
    >
      <SeriesView
        view={view}
        rows={rows}
        series={SERIES}
        headers={USERS_CSV_HEADERS}
        label="Users table"
        testId="users-chart"
        height={280}
        spanDays={spanDays(time)}
        right={USERS_AXES}
      />
    </ChartCard>
  );
}
